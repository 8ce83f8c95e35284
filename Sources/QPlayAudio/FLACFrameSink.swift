import CFLAC

#if canImport(Glibc)
import Glibc
#endif

/// Where libFLAC's stream decoder callbacks land (their `client_data`): the file under
/// the decoder, and the decoded frames on their way into the caller's buffer.
///
/// libFLAC hands out one whole frame at a time (up to 65,535 samples a channel) as one
/// `Int32` array per channel, right-justified. The frame is interleaved and shifted to
/// the pipeline's left-justified samples straight into the buffer of the `read` in
/// progress; what does not fit is carried, already interleaved, for the next read. No
/// allocation per frame: the carry grows only when a frame is larger than any before.
final class FLACFrameSink {
    let reader: BudgetedReader
    /// STREAMINFO, once the metadata has been read.
    private(set) var streamInfo: FLAC__StreamMetadata_StreamInfo?
    /// The last problem libFLAC reported since audio last came out (lost sync, a bad
    /// frame header, a CRC mismatch: that frame plays as silence), to say why none does.
    private(set) var lastError: FLAC__StreamDecoderErrorStatus?
    /// A frame whose rate, channel count or depth differs from STREAMINFO's stopped decoding.
    private(set) var formatChanged = false
    /// The stream's sample number after the last decoded frame.
    var decodedEnd = 0

    private var format: AudioFormat?
    private var shift: Int32 = 0
    /// The file's length when the end was last asked about.
    private var lengthSeen = 0

    // The buffer of the read in progress (nil between reads and while seeking).
    private var target: UnsafeMutablePointer<Int32>?
    private var targetCapacity = 0
    private(set) var targetFilled = 0

    private var carried: UnsafeMutablePointer<Int32>
    private var carriedCapacity: Int
    private var carriedStart = 0
    /// Samples carried (whole frames).
    private(set) var carriedCount = 0

    init(reader: BudgetedReader) {
        self.reader = reader
        carriedCapacity = 0
        carried = .allocate(capacity: 0)
    }

    deinit {
        carried.deallocate()
    }

    /// The format every frame must have from now on (STREAMINFO's).
    func expect(_ format: AudioFormat, largestBlock: Int) {
        self.format = format
        shift = Int32(32 - format.bits)
        reserveCarry(largestBlock * format.channels)
    }

    // MARK: the read in progress

    /// Copies carried samples into `buffer` (up to `capacity`); returns how many.
    func drainCarried(into buffer: UnsafeMutablePointer<Int32>, capacity: Int) -> Int {
        let count = min(capacity, carriedCount)
        buffer.update(from: carried + carriedStart, count: count)
        carriedStart += count
        carriedCount -= count
        if carriedCount == 0 { carriedStart = 0 }
        return count
    }

    func dropCarried() {
        carriedStart = 0
        carriedCount = 0
    }

    /// Frames decoded from now until `endTarget` go into `buffer` from `filled` on, up
    /// to `capacity` samples (whole frames).
    func beginTarget(_ buffer: UnsafeMutablePointer<Int32>, capacity: Int, filled: Int) {
        target = buffer
        targetCapacity = capacity
        targetFilled = filled
    }

    func endTarget() {
        target = nil
        targetCapacity = 0
        targetFilled = 0
    }

    // MARK: libFLAC's callbacks

    fileprivate func take(
        _ frame: UnsafePointer<FLAC__Frame>, _ buffers: UnsafePointer<UnsafePointer<FLAC__int32>?>
    ) -> FLAC__StreamDecoderWriteStatus {
        let header = frame.pointee.header
        guard let format, Int(header.channels) == format.channels, Int(header.bits_per_sample) == format.bits,
            Int(header.sample_rate) == format.sampleRate
        else {
            formatChanged = true
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        for channel in 0..<format.channels where buffers[channel] == nil {
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        let frames = Int(header.blocksize)
        // libFLAC numbers fixed-blocksize frames by sample too; a seek hands out the
        // target frame from the target sample on, numbered so.
        if header.number_type == FLAC__FRAME_NUMBER_TYPE_SAMPLE_NUMBER {
            decodedEnd = Int(clamping: header.number.sample_number) &+ frames
        } else {
            decodedEnd &+= frames
        }
        reader.audioArrived()
        lastError = nil
        let channels = format.channels
        let room = target == nil ? 0 : (targetCapacity - targetFilled) / channels
        let direct = min(frames, room)
        if direct > 0, let target {
            interleave(buffers, from: 0, count: direct, into: target + targetFilled, channels: channels)
            targetFilled += direct * channels
        }
        if direct < frames {
            // Invariant: a read hands out everything carried before libFLAC decodes on.
            reserveCarry((frames - direct) * channels)
            interleave(buffers, from: direct, count: frames - direct, into: carried, channels: channels)
            carriedStart = 0
            carriedCount = (frames - direct) * channels
        }
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    @inline(__always)
    private func interleave(
        _ buffers: UnsafePointer<UnsafePointer<FLAC__int32>?>, from start: Int, count: Int,
        into destination: UnsafeMutablePointer<Int32>, channels: Int
    ) {
        let shift = self.shift
        if channels == 2, let left = buffers[0], let right = buffers[1] {
            for index in 0..<count {
                destination[2 * index] = left[start + index] &<< shift
                destination[2 * index + 1] = right[start + index] &<< shift
            }
            return
        }
        for channel in 0..<channels {
            guard let source = buffers[channel] else { continue }
            var out = destination + channel
            for index in start..<(start + count) {
                out.pointee = source[index] &<< shift
                out += channels
            }
        }
    }

    private func reserveCarry(_ samples: Int) {
        guard samples > carriedCapacity else { return }
        carried.deallocate()
        carried = .allocate(capacity: samples)
        carriedCapacity = samples
        carriedStart = 0
        carriedCount = 0
    }

    fileprivate func keep(_ metadata: UnsafePointer<FLAC__StreamMetadata>) {
        if metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO, streamInfo == nil {
            streamInfo = metadata.pointee.data.stream_info
        }
    }

    fileprivate func note(_ error: FLAC__StreamDecoderErrorStatus) {
        lastError = error
    }

    /// The file's size, leaving the position where it was.
    fileprivate var length: Int? {
        let position = reader.seek(offset: 0, whence: SEEK_CUR)
        let end = reader.seek(offset: 0, whence: SEEK_END)
        guard position >= 0, end >= 0, reader.seek(offset: position, whence: SEEK_SET) == position else { return nil }
        return end
    }

    /// Opens libFLAC's stream decoder on this sink.
    func initialize(_ handle: UnsafeMutablePointer<FLAC__StreamDecoder>) -> FLAC__StreamDecoderInitStatus {
        FLAC__stream_decoder_init_stream(
            handle, Self.readCallback, Self.seekCallback, Self.tellCallback, Self.lengthCallback, Self.eofCallback,
            Self.writeCallback, Self.metadataCallback, Self.errorCallback,
            Unmanaged.passUnretained(self).toOpaque())
    }

    private static func sink(_ client: UnsafeMutableRawPointer?) -> FLACFrameSink {
        Unmanaged<FLACFrameSink>.fromOpaque(client!).takeUnretainedValue()
    }

    private static let readCallback: FLAC__StreamDecoderReadCallback = { _, buffer, bytes, client in
        guard let buffer, let bytes else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
        guard bytes.pointee > 0 else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
        let got = sink(client).reader.read(into: buffer, count: bytes.pointee)
        guard got >= 0 else {
            bytes.pointee = 0
            return FLAC__STREAM_DECODER_READ_STATUS_ABORT
        }
        bytes.pointee = got
        return got == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
    }

    private static let seekCallback: FLAC__StreamDecoderSeekCallback = { _, offset, client in
        guard offset <= UInt64(Int.max),
            sink(client).reader.seek(offset: Int(offset), whence: SEEK_SET) == Int(offset)
        else { return FLAC__STREAM_DECODER_SEEK_STATUS_ERROR }
        return FLAC__STREAM_DECODER_SEEK_STATUS_OK
    }

    private static let tellCallback: FLAC__StreamDecoderTellCallback = { _, offset, client in
        let position = sink(client).reader.seek(offset: 0, whence: SEEK_CUR)
        guard let offset, position >= 0 else { return FLAC__STREAM_DECODER_TELL_STATUS_ERROR }
        offset.pointee = UInt64(position)
        return FLAC__STREAM_DECODER_TELL_STATUS_OK
    }

    private static let lengthCallback: FLAC__StreamDecoderLengthCallback = { _, length, client in
        guard let length, let bytes = sink(client).length else { return FLAC__STREAM_DECODER_LENGTH_STATUS_ERROR }
        length.pointee = UInt64(bytes)
        return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
    }

    private static let eofCallback: FLAC__StreamDecoderEofCallback = { _, client in
        let sink = sink(client)
        let position = sink.reader.seek(offset: 0, whence: SEEK_CUR)
        // libFLAC asks before every read: the file is looked at (fstat) only once the
        // position reaches the length seen last (it may have grown since).
        if position < sink.lengthSeen { return 0 }
        guard let length = sink.length else { return 1 }
        sink.lengthSeen = length
        return position >= length ? 1 : 0
    }

    private static let writeCallback: FLAC__StreamDecoderWriteCallback = { _, frame, buffers, client in
        guard let frame, let buffers else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
        return sink(client).take(frame, buffers)
    }

    private static let metadataCallback: FLAC__StreamDecoderMetadataCallback = { _, metadata, client in
        guard let metadata else { return }
        sink(client).keep(metadata)
    }

    private static let errorCallback: FLAC__StreamDecoderErrorCallback = { _, status, client in
        sink(client).note(status)
    }
}
