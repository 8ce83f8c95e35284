import SystemPackage

/// Turns a path as the user wrote it into an absolute one: `~` and `~/…` become the home
/// directory, a relative path is taken relative to `base` (the current directory for
/// flags, the config file's folder for the file).
enum PathResolution {
    struct Failure: Error {
        var reason: String
    }

    static func resolve(_ text: String, relativeTo base: FilePath, home: FilePath?) throws(Failure) -> FilePath {
        if text.isEmpty { throw Failure(reason: "the path is empty") }
        if text.utf8.contains(0) { throw Failure(reason: "the path contains a NUL byte") }
        let path: FilePath
        if text == "~" || text.hasPrefix("~/") {
            guard let home else { throw Failure(reason: "cannot expand '~': HOME is not set") }
            let rest = text.dropFirst(1).drop(while: { $0 == "/" })
            path = rest.isEmpty ? home : home.appending(String(rest))
        } else if text.hasPrefix("~") {
            throw Failure(reason: "only '~' and '~/' are expanded, not '~user'")
        } else {
            let given = FilePath(text)
            path = given.isAbsolute ? given : base.pushing(given)
        }
        return path.lexicallyNormalized()
    }
}
