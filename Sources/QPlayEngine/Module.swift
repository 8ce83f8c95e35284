// The QPlayEngine module: its files arrive with the issue that builds it.
