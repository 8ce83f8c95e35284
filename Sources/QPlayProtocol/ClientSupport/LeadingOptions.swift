/// `qplay --socket PATH status`: connection options typed before the subcommand, as
/// `mpc --host HOST status` users do. Each subcommand declares them, so they are moved
/// to just after the subcommand's name (before its positionals, where they are still
/// read as options); everything else is left as it was typed.
public enum LeadingOptions {
    /// Options that take a value (`--socket PATH`, `--socket=PATH`).
    static let valued = ["--socket", "--timeout"]
    /// Options without a value.
    static let flags = ["--json"]

    /// The arguments (without the program name) with leading connection options moved
    /// after the subcommand. Unchanged when none lead, when no subcommand follows them,
    /// or when what follows is another option (`--help`) or `help`.
    public static func moved(_ arguments: [String]) -> [String] {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if flags.contains(argument) {
                index += 1
            } else if valued.contains(argument), index + 1 < arguments.count {
                index += 2
            } else if valued.contains(where: { argument.hasPrefix($0 + "=") }) {
                index += 1
            } else {
                break
            }
        }
        guard index > 0, index < arguments.count else { return arguments }
        let subcommand = arguments[index]
        guard !subcommand.hasPrefix("-"), subcommand != "help" else { return arguments }
        return [subcommand] + arguments[..<index] + arguments[(index + 1)...]
    }
}
