import SystemPackage

/// An output as the user writes it: `alsa`, `alsa:DEVICE`, `null`, `file:PATH`,
/// `pipe:PATH`.
public enum OutputSpec: Sendable, Equatable, CustomStringConvertible {
    case alsa(device: String)
    case null
    case file(FilePath)
    case pipe(FilePath)

    public init(parsing text: String) throws(AudioOutputError) {
        let (kind, argument): (Substring, Substring?) =
            if let colon = text.firstIndex(of: ":") {
                (text[..<colon], text[text.index(after: colon)...])
            } else {
                (Substring(text), nil)
            }
        switch (kind, argument) {
        case ("alsa", nil): self = .alsa(device: "default")
        case ("alsa", let device?) where !device.isEmpty: self = .alsa(device: String(device))
        case ("null", nil): self = .null
        case ("file", let path?) where !path.isEmpty: self = .file(FilePath(String(path)))
        case ("pipe", let path?) where !path.isEmpty: self = .pipe(FilePath(String(path)))
        default:
            throw AudioOutputError(
                output: text, reason: "unknown output; use alsa, alsa:DEVICE, null, file:PATH or pipe:PATH")
        }
    }

    public var description: String {
        switch self {
        case .alsa(let device): "alsa:\(device)"
        case .null: "null"
        case .file(let path): "file:\(path.string)"
        case .pipe(let path): "pipe:\(path.string)"
        }
    }

    /// `rawFormat`: the fixed format of `file:` and `pipe:` outputs.
    public func makeOutput(rawFormat: AudioFormat = .cd) -> any AudioOutput {
        switch self {
        case .alsa(let device): ALSAOutput(device: device)
        case .null: NullOutput()
        case .file(let path): RawPCMOutput(kind: .file, path: path, format: rawFormat)
        case .pipe(let path): RawPCMOutput(kind: .pipe, path: path, format: rawFormat)
        }
    }
}
