extension DaemonConfiguration {
    /// `http_listen`, `http_password` and `http_hosts` from the file, `--http` over the
    /// list; an address other than loopback without a password stops the start.
    static func loadWeb(
        into configuration: inout DaemonConfiguration, file: ConfigurationFile?, flags: [String]?
    ) throws(ConfigurationError) {
        if let listen = file?.httpListen {
            configuration.httpListen = listen
            configuration.httpListenIsDefault = false
        }
        configuration.httpPassword = file?.httpPassword
        configuration.httpHosts = file?.httpHosts ?? []
        configuration.httpStream = file?.httpStream
        if let flags {
            configuration.httpListen = []
            configuration.httpListenIsDefault = false
            for text in flags {
                let address: MPDAddress
                do {
                    address = try MPDAddress.parse(text)
                } catch {
                    throw ConfigurationError(origin: "--http", reason: error.reason)
                }
                if case .unix = address {
                    throw ConfigurationError(origin: "--http", reason: "\(text) is a socket path; the web remote listens on HOST:PORT")
                }
                configuration.httpListen.append(address)
            }
        }
        if configuration.httpStream != nil && configuration.httpListen.isEmpty {
            throw ConfigurationError(
                origin: configuration.configFile?.string ?? "--http", key: ConfigurationKey.httpStream.rawValue,
                reason: "the stream is served by the web remote, which is off (http_listen = [])")
        }
        // The page drives the player and reads the library: reachable from other
        // machines, it needs the sign-in.
        guard configuration.httpPassword == nil,
            let exposed = configuration.httpListen.first(where: { !$0.isLocal })
        else { return }
        throw ConfigurationError(
            origin: configuration.configFile?.string ?? "--http", key: ConfigurationKey.httpPassword.rawValue,
            reason: "the web remote's address \(exposed) is reachable from other machines; set http_password in the config file, or listen on 127.0.0.1, localhost or ::1 only")
    }
}
