/// Text for a place that reads Pango markup (waybar's `text` and `tooltip`): a title
/// such as "Rock & Roll <Live>" must show as written, not empty the label with a
/// markup error.
public enum PangoText {
    /// `&`, `<` and `>` as entities. Quotes stay: markup treats them as text outside a
    /// tag, and a title is never put inside an attribute.
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
