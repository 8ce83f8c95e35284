#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds a key that appears twice in one object of a JSON text. JSONDecoder keeps one of
/// the two without a word; a request that names `cmd` twice is ambiguous, so the request
/// reader looks for this after JSONDecoder accepted the text (JSONInput, the fast
/// reader, gives up on duplicates by itself and leaves them to this path).
enum JSONDuplicateKey {
    /// What is duplicated, for a message ("the request has the key `cmd` twice",
    /// "`args` has the key `path` twice"); nil when the keys of every object differ.
    /// Meant for text JSONDecoder has accepted, which also bounds the recursion here
    /// (JSONDecoder refuses nesting deeper than 512); on anything else it stops without
    /// a finding.
    static func first(in bytes: [UInt8]) -> String? {
        var scanner = Scanner(bytes: bytes)
        return scanner.value(owner: nil)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        /// The byte at the current position; 0 past the end.
        var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

        mutating func skipWhitespace() {
            while [0x20, 0x09, 0x0A, 0x0D].contains(current) { position += 1 }
        }

        /// Skips one value; the first duplicate found inside it. `owner` is the key of
        /// the member this value belongs to (nil at the top).
        mutating func value(owner: String?) -> String? {
            skipWhitespace()
            switch current {
            case UInt8(ascii: "{"):
                position += 1
                var keys: Set<String> = []
                while true {
                    skipWhitespace()
                    guard current == UInt8(ascii: "\"") else {
                        position += 1  // `}` of an empty object (or malformed text)
                        return nil
                    }
                    let key = string()
                    if !keys.insert(key).inserted {
                        return owner.map { "`\($0)` has the key `\(key)` twice" }
                            ?? "the request has the key `\(key)` twice"
                    }
                    skipWhitespace()
                    guard current == UInt8(ascii: ":") else { return nil }
                    position += 1
                    if let found = value(owner: key) { return found }
                    skipWhitespace()
                    let separator = current
                    position += 1
                    guard separator == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if current == UInt8(ascii: "]") {
                    position += 1
                    return nil
                }
                while true {
                    if let found = value(owner: owner) { return found }
                    skipWhitespace()
                    let separator = current
                    position += 1
                    guard separator == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "\""):
                _ = string()
                return nil
            case 0:
                return nil
            default:
                // A number or literal: up to the next delimiter.
                while position < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(current)
                {
                    position += 1
                }
                return nil
            }
        }

        /// Reads a string at its opening quote. Escaped ones are decoded by JSONDecoder,
        /// so `"\u0063md"` is the same key as `"cmd"`.
        mutating func string() -> String {
            let start = position
            position += 1
            var escaped = false
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                if bytes[position] == UInt8(ascii: "\\") {
                    escaped = true
                    position += 1
                }
                position += 1
            }
            position = min(position + 1, bytes.count)
            let quoted = bytes[start..<position]
            guard escaped else { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
            return (try? JSONDecoder().decode(String.self, from: Data(quoted)))
                ?? String(decoding: quoted, as: UTF8.self)
        }
    }
}
