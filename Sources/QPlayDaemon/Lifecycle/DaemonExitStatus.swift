/// The exit statuses of `qplayd`, which the systemd unit relies on
/// (`RestartPreventExitStatus=78`: no restart loop for failures a restart cannot fix).
public enum DaemonExitStatus {
    /// A normal shutdown, including one by SIGINT/SIGTERM.
    public static let success: Int32 = 0
    /// Anything else went wrong (worth a restart by systemd).
    public static let failure: Int32 = 1
    /// EX_CONFIG from sysexits.h: the configuration is invalid (`ConfigurationError`),
    /// or another qplayd already serves the socket (`SingleInstanceLock.Failure`).
    public static let configuration: Int32 = 78
}
