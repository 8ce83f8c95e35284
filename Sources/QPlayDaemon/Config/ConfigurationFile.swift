import Logging
import QPlayAudio
import QPlayEngine
import QPlayModel
import QPlayStreamOutput
import SystemPackage

/// The values one TOML config file sets (nil: not set), already checked and with paths
/// made absolute. See `ConfigurationKey` for the keys.
struct ConfigurationFile: Sendable, Equatable {
    var path: FilePath
    var musicDirectory: FilePath?
    var socket: FilePath?
    var dataDirectory: FilePath?
    /// The first output and the ones after it (`output` as a list).
    var outputs: [OutputSpec]?
    var rawRate: Int?
    var rawChannels: Int?
    var tapThreshold: Duration?
    var scanRate: Double?
    var maxHold: Duration?
    var restartAfter: Double?
    var scanOnStart: Bool?
    var watch: Bool?
    var watchRescan: Duration?
    var watchLimit: Int?
    var maxConnections: Int?
    var connectionTimeout: Duration?
    var maxQueueLength: Int?
    var logLevel: Logger.Level?
    var replayGainMode: ReplayGainMode?
    var replayGainPreamp: Double?
    var mpdListen: [MPDAddress]?
    var mpdPassword: String?
    var httpListen: [MPDAddress]?
    var httpPassword: String?
    var httpStream: StreamEncoding?
    var httpHosts: [String]?
    var sleepFade: Double?
    var resumeMinDuration: Double?
    var mpris: Bool?
    var notify: Bool?
    var playlistDirectory: FilePath?

    init(path: FilePath) {
        self.path = path
    }

    /// Reads and parses `path`. A missing file gives nil when `mustExist` is false (the
    /// default file is optional; a file named by `--config` is not).
    static func read(_ path: FilePath, home: FilePath?, mustExist: Bool) throws(ConfigurationError) -> ConfigurationFile? {
        let bytes: [UInt8]
        do {
            bytes = try readBytes(path)
        } catch Errno.noSuchFileOrDirectory where !mustExist {
            return nil
        } catch {
            throw ConfigurationError(origin: path.string, reason: "cannot read the config file: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(origin: path.string, reason: "the config file is not valid UTF-8")
        }
        return try parse(text, path: path, home: home)
    }

    static func parse(_ text: String, path: FilePath, home: FilePath?) throws(ConfigurationError) -> ConfigurationFile {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw ConfigurationError(
                origin: path.string, line: error.line, column: error.column, reason: "invalid TOML: \(error.reason)")
        }
        var file = ConfigurationFile(path: path)
        // Worked out for the path keys only: FilePath's component walk is most of the
        // cost of loading a file without them (config fuzzing runs it per input).
        var folder: FilePath { path.removingLastComponent() }
        for name in table.keys.sorted() {
            guard let key = ConfigurationKey(rawValue: name) else {
                let known = ConfigurationKey.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(origin: path.string, key: name, reason: "unknown key (known keys: \(known))")
            }
            guard let value = table[name] else { continue }
            let reader = ValueReader(origin: path.string, key: key, value: value)
            switch key {
            case .musicDirectory: file.musicDirectory = try reader.path(relativeTo: folder, home: home)
            case .socket: file.socket = try reader.path(relativeTo: folder, home: home)
            case .dataDirectory: file.dataDirectory = try reader.path(relativeTo: folder, home: home)
            case .output: file.outputs = try reader.outputs(relativeTo: folder, home: home)
            case .rawRate: file.rawRate = try reader.integer(in: 8000...384_000)
            case .rawChannels: file.rawChannels = try reader.integer(in: 1...8)
            case .tapThresholdMilliseconds: file.tapThreshold = .milliseconds(try reader.integer(in: 10...5000))
            case .scanRate: file.scanRate = try reader.number(in: 1.5...64)
            case .maxHoldMilliseconds: file.maxHold = .milliseconds(try reader.integer(in: 1000...600_000))
            case .restartAfterMilliseconds: file.restartAfter = Double(try reader.integer(in: 0...60000)) / 1000
            case .scanOnStart: file.scanOnStart = try reader.boolean()
            case .watch: file.watch = try reader.boolean()
            case .watchRescanSeconds: file.watchRescan = .seconds(try reader.integer(in: 1...86400))
            case .watchLimit: file.watchLimit = try reader.integer(in: 0...10_000_000)
            case .maxConnections: file.maxConnections = try reader.integer(in: 1...100_000)
            case .connectionTimeout: file.connectionTimeout = .seconds(try reader.integer(in: 1...86400))
            case .maxQueueLength: file.maxQueueLength = try reader.integer(in: 1...10_000_000)
            case .logLevel: file.logLevel = try reader.logLevel()
            case .replayGain: file.replayGainMode = try reader.replayGainMode()
            case .replayGainPreamp: file.replayGainPreamp = try reader.number(in: ReplayGainSettings.preampRange)
            case .mpdListen: file.mpdListen = try reader.mpdAddresses()
            case .mpdPassword: file.mpdPassword = try reader.mpdPassword()
            case .httpListen: file.httpListen = try reader.httpAddresses()
            case .httpPassword: file.httpPassword = try reader.mpdPassword()
            case .httpStream: file.httpStream = try reader.streamEncoding()
            case .httpHosts: file.httpHosts = try reader.hostNames()
            case .sleepFade: file.sleepFade = try reader.number(in: 0...600)
            case .resumeMinDuration: file.resumeMinDuration = try reader.number(in: 0...604_800)
            case .mpris: file.mpris = try reader.boolean()
            case .notify: file.notify = try reader.boolean()
            case .playlistDirectory: file.playlistDirectory = try reader.path(relativeTo: folder, home: home)
            }
        }
        return file
    }

    static func readBytes(_ path: FilePath) throws -> [UInt8] {
        let descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            // A config file is a few hundred bytes; refuse to slurp something huge by mistake.
            if bytes.count > 1 << 20 { throw Errno.fileTooLarge }
        }
    }
}

/// Reads one key's value with a message naming the key when the type or range is wrong.
private struct ValueReader {
    var origin: String
    var key: ConfigurationKey
    var value: TOMLValue

    func failure(_ reason: String) -> ConfigurationError {
        ConfigurationError(origin: origin, key: key.rawValue, reason: reason)
    }

    func wrongType(_ expected: String) -> ConfigurationError {
        failure("expected \(expected), found \(value.typeName) \(value.tomlText)")
    }

    func string() throws(ConfigurationError) -> String {
        guard let text = value.string else { throw wrongType("a string") }
        return text
    }

    func path(relativeTo folder: FilePath, home: FilePath?) throws(ConfigurationError) -> FilePath {
        let text = try string()
        do {
            return try PathResolution.resolve(text, relativeTo: folder, home: home)
        } catch {
            throw failure(error.reason)
        }
    }

    /// One output as a string, or several as an array of strings (the first the clock).
    func outputs(relativeTo folder: FilePath, home: FilePath?) throws(ConfigurationError) -> [OutputSpec] {
        let texts: [String]
        if let text = value.string {
            texts = [text]
        } else if let array = value.array {
            texts = try array.map { (element) throws(ConfigurationError) -> String in
                guard let text = element.string else {
                    throw failure("expected outputs as strings, found \(element.typeName) \(element.tomlText)")
                }
                return text
            }
        } else {
            throw wrongType("a string or an array of strings")
        }
        do {
            return try OutputParsing.parseList(texts, relativeTo: folder, home: home)
        } catch {
            throw failure(error.reason)
        }
    }

    func integer(in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let number = value.int else { throw wrongType("an integer") }
        guard range.contains(number) else {
            throw failure("\(number) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    /// TOML writes `4` as an integer and `4.0` as a float: both are fine for a number.
    func number(in range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        guard let number = value.double ?? value.int.map(Double.init) else { throw wrongType("a number") }
        guard number.isFinite, range.contains(number) else {
            throw failure("\(number) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    func boolean() throws(ConfigurationError) -> Bool {
        guard let flag = value.bool else { throw wrongType("true or false") }
        return flag
    }

    func streamEncoding() throws(ConfigurationError) -> StreamEncoding {
        let text = try string()
        guard let encoding = StreamEncoding(rawValue: text.lowercased()) else {
            let known = StreamEncoding.allCases.map(\.rawValue).joined(separator: " or ")
            throw failure("unknown stream format '\(text)' (use \(known))")
        }
        return encoding
    }

    func replayGainMode() throws(ConfigurationError) -> ReplayGainMode {
        let text = try string()
        guard let mode = ReplayGainMode(rawValue: text.lowercased()) else {
            let known = ReplayGainMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw failure("unknown ReplayGain mode '\(text)' (use one of \(known))")
        }
        return mode
    }

    func mpdAddresses() throws(ConfigurationError) -> [MPDAddress] {
        guard let array = value.array else { throw wrongType("an array of addresses") }
        var addresses: [MPDAddress] = []
        for element in array {
            guard let text = element.string else {
                throw failure("expected addresses as strings, found \(element.typeName) \(element.tomlText)")
            }
            do {
                addresses.append(try MPDAddress.parse(text))
            } catch {
                throw failure(error.reason)
            }
        }
        return addresses
    }

    /// The web remote's addresses: TCP only (a browser cannot reach a Unix socket).
    func httpAddresses() throws(ConfigurationError) -> [MPDAddress] {
        let addresses = try mpdAddresses()
        if let path = addresses.first(where: { if case .unix = $0 { true } else { false } }) {
            throw failure("\(path) is a socket path; the web remote listens on HOST:PORT")
        }
        return addresses
    }

    func hostNames() throws(ConfigurationError) -> [String] {
        guard let array = value.array else { throw wrongType("an array of host names") }
        var names: [String] = []
        for element in array {
            guard let text = element.string, !text.isEmpty,
                !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "/" })
            else { throw failure("expected host names as strings, found \(element.typeName) \(element.tomlText)") }
            names.append(text.lowercased())
        }
        return names
    }

    /// MPD's own password rule: printable, on one line, no blanks at the ends (a client
    /// sends it as one quoted argument).
    func mpdPassword() throws(ConfigurationError) -> String {
        let text = try string()
        if text.isEmpty { throw failure("the password is empty; remove the key for no password") }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw failure("the password contains a control character (newline, tab, ...)")
        }
        return text
    }

    func logLevel() throws(ConfigurationError) -> Logger.Level {
        let text = try string()
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let known = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw failure("unknown log level '\(text)' (use one of \(known))")
        }
        return level
    }
}
