import QPlayAudio
import SystemPackage

/// Parses an output spec and makes the path of `file:`/`pipe:` absolute, so the daemon
/// writes where the user meant even though it may run from another directory.
enum OutputParsing {
    static func parse(_ text: String, relativeTo base: FilePath, home: FilePath?) throws(PathResolution.Failure) -> OutputSpec {
        let spec: OutputSpec
        do {
            spec = try OutputSpec(parsing: text)
        } catch {
            throw PathResolution.Failure(reason: error.reason)
        }
        switch spec {
        case .alsa, .null:
            return spec
        case .file(let path):
            return .file(try PathResolution.resolve(path.string, relativeTo: base, home: home))
        case .pipe(let path):
            return .pipe(try PathResolution.resolve(path.string, relativeTo: base, home: home))
        }
    }

    /// Outputs played at once, the first the clock: at least one, none twice (two
    /// writers of one file or device would interleave).
    static func parseList(_ texts: [String], relativeTo base: FilePath, home: FilePath?) throws(PathResolution.Failure) -> [OutputSpec] {
        guard !texts.isEmpty else { throw PathResolution.Failure(reason: "no output given") }
        var specs: [OutputSpec] = []
        for text in texts {
            let spec = try parse(text, relativeTo: base, home: home)
            guard !specs.contains(spec) else { throw PathResolution.Failure(reason: "\(spec) is listed twice") }
            specs.append(spec)
        }
        return specs
    }
}
