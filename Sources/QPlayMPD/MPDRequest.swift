/// One command line as MPD's tokenizer splits it: the command word and its arguments.
public struct MPDRequest: Sendable, Equatable {
    public var name: String
    public var arguments: [String]

    public init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }
}
