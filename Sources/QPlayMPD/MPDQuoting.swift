/// How a client writes an argument so MPD's tokenizer gives it back unchanged: in
/// double quotes, with `"` and `\` escaped (what libmpdclient and python-mpd2 do).
public enum MPDQuoting {
    public static func quote(_ argument: String) -> String {
        var quoted = "\""
        for character in argument.unicodeScalars {
            if character == "\"" || character == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(character)
        }
        quoted.unicodeScalars.append("\"")
        return quoted
    }

    /// A command line: the name, then each argument quoted.
    public static func line(_ name: String, _ arguments: [String]) -> String {
        ([name] + arguments.map(quote)).joined(separator: " ")
    }
}
