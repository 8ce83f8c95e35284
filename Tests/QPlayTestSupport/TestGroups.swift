import Foundation
import Testing

// The suites that must not run beside the rest. Each carries its group's tag (which
// scripts/test selects by) and `.group(_:)`, which skips it in a plain `swift test`:
// beside the whole parallel suite they starved it, or it starved them.
extension Tag {
    /// Suites that load the machine on purpose: busy loops with real-time playback under them.
    @Tag public static var heavy: Self
    /// Suites whose work runs in tasks of the cooperative pool (one thread per core), which
    /// the parallel end-to-end tests, synchronous and waiting on daemons, hold up.
    @Tag public static var pooled: Self
    /// Suites driving real peers (MPD, mpc, python-mpd2, ncmpcpp, playerctl and gdbus on a
    /// private bus): a process per step, which starved the audio tests waiting on real time.
    @Tag public static var peer: Self
}

/// A group of suites run on its own, after the rest. `QPLAY_TEST_GROUP` names the group a
/// run is for (`all`: every group); without it a group runs only when the run is narrowed
/// by hand with `--filter`, so `swift test --filter StressTests` still runs the stress test.
public enum TestGroup: String, Sendable {
    case pooled, heavy, peer

    public static let variable = "QPLAY_TEST_GROUP"

    public var tag: Tag {
        switch self {
        case .pooled: .pooled
        case .heavy: .heavy
        case .peer: .peer
        }
    }

    /// Whether this process runs the group's suites.
    public var isSelected: Bool {
        if let chosen = ProcessInfo.processInfo.environment[Self.variable], !chosen.isEmpty {
            return chosen == rawValue || chosen == "all"
        }
        // swift test hands its --filter on to the test process.
        return CommandLine.arguments.contains { $0 == "--filter" || $0.hasPrefix("--filter=") }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only in its group's run; a plain `swift test` skips it, saying how to
    /// run it.
    public static func group(_ group: TestGroup) -> Self {
        .enabled(
            if: group.isSelected,
            Comment(rawValue: "the \(group.rawValue) group runs on its own: \(TestGroup.variable)=\(group.rawValue) "
                + "(scripts/test runs each group), or name the suite with --filter"))
    }
}
