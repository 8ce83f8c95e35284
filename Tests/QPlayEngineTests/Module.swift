// Tests for QPlayEngine arrive with the issue that builds it.
