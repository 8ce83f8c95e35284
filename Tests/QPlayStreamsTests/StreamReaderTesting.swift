import Foundation
import QPlayStreamInput

/// A reader for one test, shut down however the test ends.
func withReader(
    _ options: StreamReaderOptions = StreamReaderOptions(), _ body: (StreamReader) async throws -> Void
) async throws {
    let reader = StreamReader(options: options)
    do {
        try await body(reader)
    } catch {
        try await reader.shutdown()
        throw error
    }
    try await reader.shutdown()
}

/// Why opening (and reading) `url` fails; nil when the stream opens and ends cleanly.
func openError(_ reader: StreamReader, _ url: String) async -> StreamReadError? {
    do {
        let connection = try await reader.open(URL(string: url)!)
        connection.buffer.close()
        await connection.pump()
        return nil
    } catch {
        return error
    }
}
