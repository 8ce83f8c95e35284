/// An `idle` subsystem: a part of MPD's state whose change wakes idle clients. qplay
/// raises the first seven and `sticker`; the rest are accepted in `idle` lists, as MPD
/// does, and never fire (qplay has no partitions, ...).
enum MPDSubsystem: String, CaseIterable, Sendable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message, neighbor, mount

    /// MPD's names are matched case-insensitively.
    static func named(_ name: String) -> MPDSubsystem? {
        MPDSubsystem(rawValue: name.lowercased())
    }
}

/// A set of subsystems as bits: connections merge them under a lock on every event.
struct MPDSubsystems: OptionSet, Sendable, Hashable {
    let rawValue: UInt32

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    init(_ subsystem: MPDSubsystem) {
        rawValue = 1 << UInt32(MPDSubsystem.allCases.firstIndex(of: subsystem)!)
    }

    static let player = MPDSubsystems(.player)
    static let mixer = MPDSubsystems(.mixer)
    static let options = MPDSubsystems(.options)
    static let playlist = MPDSubsystems(.playlist)
    static let database = MPDSubsystems(.database)
    static let update = MPDSubsystems(.update)
    static let sticker = MPDSubsystems(.sticker)
    static let all = MPDSubsystems(rawValue: (1 << UInt32(MPDSubsystem.allCases.count)) - 1)

    /// In MPD's order (`idle` answers list them so).
    var members: [MPDSubsystem] {
        MPDSubsystem.allCases.filter { contains(MPDSubsystems($0)) }
    }
}
