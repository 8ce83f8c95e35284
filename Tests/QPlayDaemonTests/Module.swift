// Tests for QPlayDaemon arrive with the issue that builds it.
