import Foundation

/// Case- and diacritic-insensitive folding, the way a `CONTAINS[cd]` predicate compares
/// Latin and Greek text: "Beyoncé" → "beyonce", "CAFE" → "cafe", "Straße" → "strasse".
///
/// Marks are removed only from Latin and Greek letters. In other scripts a mark makes a
/// different letter (Russian й is not и, Japanese が is not か), so Cyrillic and Japanese
/// text only loses its case: "Ночной" and "НОЧНОЙ" both fold to "ночной", "夜の歌" stays.
///
/// The index stores every searchable property folded, and queries fold their values the
/// same way, so matching is a plain comparison in SQLite (whose `LIKE` folds ASCII only).
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // Most tags are ASCII: lower-casing bytes is far faster than Foundation's folding
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
        // Full case folding (ß → ss), then canonical decomposition so marks stand apart.
        let decomposed = text.folding(options: [.caseInsensitive], locale: nil)
            .decomposedStringWithCanonicalMapping
        var kept = String.UnicodeScalarView()
        var base: Unicode.Scalar?
        for scalar in decomposed.unicodeScalars {
            if scalar.properties.canonicalCombiningClass != .notReordered {
                if let base, isLatinOrGreek(base) { continue }
            } else {
                base = scalar
            }
            kept.append(scalar)
        }
        return String(kept).precomposedStringWithCanonicalMapping
    }

    private static func isLatinOrGreek(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0000...0x024F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF:  // Latin
            return true
        case 0x0370...0x03FF, 0x1F00...0x1FFF:  // Greek
            return true
        default:
            return false
        }
    }
}
