import NIOCore
import NIOEmbedded
import NIOWebSocket
@testable import QPlayDaemon
import QPlayFuzzSupport
import QPlayProtocol

/// The web remote's WebSocket side, from a client's bytes to the frames sent back: the
/// bytes go through NIO's `WebSocketFrameDecoder` in an `EmbeddedChannel` (the decoder
/// Hummingbird puts in the pipeline, with the session's frame limit); the frames are
/// joined into messages (a small stand-in for hummingbird-websocket's own joining, which
/// is not ours: text or binary, continuations, control frames skipped, a close or a
/// protocol error ends the stream, a message over the limit closes the connection);
/// each message is read by `WebSocketInbound` as `WebSocketSessions` reads it, and each
/// answer the session sends itself (an error line, `subscribe`'s `{}`) goes out as the
/// session frames it and must decode back to exactly that message.
@main
enum WebSocketFuzz {
    static func main() { FuzzDriver.run(check) }

    static let limit = WebSocketSessions.messageLimit

    static func check(_ bytes: [UInt8]) {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: limit)))
        defer { _ = try? channel.finish() }
        var frames: [WebSocketFrame] = []
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
        } catch {
            // A protocol error: the frames before it still count.
        }
        while let frame = try? channel.readInbound(as: WebSocketFrame.self) {
            fuzzCheck(frame.length <= limit, "a frame of \(frame.length) bytes past the limit \(limit)")
            frames.append(frame)
        }
        var message: [UInt8]?
        for frame in frames {
            switch frame.opcode {
            case .text, .binary:
                guard message == nil else { return }
                message = Array(frame.unmaskedData.readableBytesView)
            case .continuation:
                guard message != nil else { return }
                message! += frame.unmaskedData.readableBytesView
            case .ping, .pong:
                continue
            default:
                return
            }
            guard message!.count <= limit else { return }
            if frame.fin {
                answer(message!)
                message = nil
            }
        }
    }

    /// One message as the session reads it, and the session's own answer framed.
    static func answer(_ bytes: [UInt8]) {
        let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let inbound = WebSocketInbound(bytes)
        fuzzCheck((inbound == .nothing) == blank, "\(bytes.count) bytes read as \(inbound)")
        switch inbound {
        case .nothing:
            break
        case .reply(let line):
            guard case .failure(let failure) = Request.decode(line: bytes) else {
                fuzzCheck(false, "an error answered to a request that decodes")
                return
            }
            fuzzCheck(line == Response.failure(failure.error).encodedLine(id: failure.id), "an error line that is not the failure's")
            sendBack(line)
        case .subscribe(let id, let kinds):
            fuzzCheck(Request.decode(line: bytes) == .success(Request(id: id, .subscribe(kinds))), "a subscribe read otherwise")
            sendBack(Response.empty.encodedLine(id: id))
        case .request(let request):
            if case .subscribe = request.command { fuzzCheck(false, "subscribe handed to the daemon") }
            fuzzCheck(Request.decode(line: bytes) == .success(request), "a request read otherwise")
            sendBack(Response.empty.encodedLine(id: request.id))
        }
    }

    /// A protocol line as the session sends it: one text frame without the newline, which
    /// a client's decoder reads back whole, unmasked.
    static func sendBack(_ line: [UInt8]) {
        fuzzCheck(line.last == 0x0A && !line.dropLast().contains(0x0A), "an answer that is not one line")
        let message = WebSocketInbound.message(line)
        fuzzCheck(message == Array(line.dropLast()), "the message is not the line without its newline")
        let server = EmbeddedChannel(handler: WebSocketFrameEncoder())
        defer { _ = try? server.finish() }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: message))
        guard (try? server.writeOutbound(frame)) != nil else {
            fuzzCheck(false, "the frame was not written")
            return
        }
        var wire: [UInt8] = []
        while let part = try? server.readOutbound(as: ByteBuffer.self) { wire += part.readableBytesView }
        let client = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: max(limit, message.count))))
        defer { _ = try? client.finish() }
        fuzzCheck((try? client.writeInbound(ByteBuffer(bytes: wire))) != nil, "the client cannot read the frame")
        let read = try? client.readInbound(as: WebSocketFrame.self)
        fuzzCheck(read?.fin == true && read?.opcode == .text && read?.maskKey == nil, "not one final unmasked text frame")
        fuzzCheck(read.map { Array($0.data.readableBytesView) } == message, "the frame does not carry the message")
        fuzzCheck((try? client.readInbound(as: WebSocketFrame.self)) == nil, "more than one frame")
        fuzzCheck(String(validating: message, as: UTF8.self) != nil, "a text frame that is not UTF-8")
    }
}
