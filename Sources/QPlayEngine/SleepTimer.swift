/// The sleep timer's phase (docs/BEHAVIOUR.md, Timers, bookmarks and resume points). It counts wall time — pausing by hand does not
/// stop it — so its deadline is on the engine's monotonic `now`, not on the position.
public enum SleepTimer: Sendable, Equatable {
    /// Fires at `deadline`: the volume then fades to silence over the configured fade.
    case counting(deadline: Duration)
    /// Pauses where the current track ends, before any sample of the next: no fade.
    case endOfTrack
    /// Fired; the fade runs until the audio side reports its end, or `until` at the
    /// latest, when playback pauses and the gain returns.
    case fading(until: Duration)
}
