/// A song filter: MPD's filter expressions and its older `TAG VALUE` pairs both parse
/// to this.
public indirect enum MPDFilter: Sendable, Equatable {
    case compare(MPDFilterSubject, MPDFilterOperator, String)
    case not(MPDFilter)
    case and([MPDFilter])
}

/// What a comparison looks at: a tag, any tag (`any`), the path relative to the music
/// directory (`file`), or the folder the song is under (`base`).
public enum MPDFilterSubject: Sendable, Equatable {
    case tag(MPDTag), any, file, base
}

public enum MPDFilterOperator: Sendable, Equatable {
    case equals, notEquals, contains, startsWith, regex, notRegex
}
