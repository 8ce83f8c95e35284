// Tests for QPlayProtocol arrive with the issue that builds it.
