/// Every command the MPD frontend answers, by name. `commands` lists them (those the
/// connection may use), `notcommands` the rest of the table.
enum MPDCommandTable {
    static let all: [MPDCommand] =
        MPDConnectionCommands.all + MPDStatusCommands.all + MPDPlaybackCommands.all + MPDQueueCommands.all
        + MPDDatabaseCommands.all + MPDArtworkCommands.all + MPDPlaylistCommands.all + MPDStickerCommands.all

    private static let byName: [String: MPDCommand] = Dictionary(
        all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// Sorted as MPD's table is, for `commands`.
    static let sortedNames: [String] = all.map(\.name).sorted()

    static func command(named name: String) -> MPDCommand? {
        byName[name]
    }
}
