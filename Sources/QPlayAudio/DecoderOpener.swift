import Foundation

/// A decoder opened off the audio thread, on its way to it. The decoder is handed over
/// once and from then on used by the audio thread alone; that one hand-over is why it
/// may cross threads.
final class OpenedDecoder: @unchecked Sendable {
    let token: UInt64
    let result: Result<any AudioDecoder, DecoderError>
    /// Where the decoder stands: the position `play` asked for, already sought.
    let seconds: Double

    init(token: UInt64, result: Result<any AudioDecoder, DecoderError>, seconds: Double) {
        self.token = token
        self.result = result
        self.seconds = seconds
    }
}

/// Opens decoders on threads of their own, so nothing a file does — a slow disk, a read
/// that does not return, junk the decoder searches through until its budget runs out —
/// holds up the audio thread while it feeds the output, takes commands or shuts down.
/// Each open gets its own short-lived thread: one that never returns delays no other.
struct DecoderOpener: Sendable {
    let decoders: DecoderRegistry
    let channel: PlaybackChannel

    /// Opens `item` (converting to `format` when given) and moves it to `seconds`;
    /// the result reaches the audio thread through the channel, which wakes it.
    func open(_ item: PlaybackItem, converting format: AudioFormat?, at seconds: Double) {
        let decoders = self.decoders
        let channel = self.channel
        let thread = Thread {
            let result: Result<any AudioDecoder, DecoderError>
            do throws(DecoderError) {
                let decoder = try decoders.open(item, converting: format)
                if seconds > 0 { try decoder.seek(toFrame: decoder.format.frame(atSeconds: seconds)) }
                result = .success(decoder)
            } catch {
                result = .failure(error)
            }
            channel.deliver(OpenedDecoder(token: item.token, result: result, seconds: seconds))
        }
        thread.name = "qplay-open"
        thread.start()
    }
}
