import QPlayMPD

/// Sends a long MPD answer in parts as it is made, each once the client has room for it,
/// so that a connection holds one part and its write buffer, not whole answers: a
/// command list of 40 `playlistinfo` of a 200,000-entry queue, sent by a client that
/// does not read, was 3.7 GB held by the daemon when lists were answered whole.
struct MPDAnswerStream: Sendable {
    /// Bytes gathered before they are sent: large enough that a write costs little
    /// beside making the bytes, small beside the write buffer's high-water mark.
    static let partSize = 256 << 10

    let connection: MPDConnection
    let frames: ConnectionFrames

    /// Once `response` holds a part's size, writes it (emptying `response`), then waits
    /// for the client to have room for more.
    /// - Throws: `MPDConnectionClosed` once the client is gone: the rest of the answer
    ///   would go nowhere.
    func sendPart(of response: inout MPDResponse) async throws(MPDConnectionClosed) {
        guard response.bytes.count >= Self.partSize else { return }
        connection.write(response.takeBytes())
        guard await frames.room() else { throw MPDConnectionClosed() }
    }
}

/// The client went away while its answer was being sent.
struct MPDConnectionClosed: Error {}
