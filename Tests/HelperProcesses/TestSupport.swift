// The helpers moved into TestSupport; this name stays only until LedgerTests imports TestSupport itself.
@_exported import TestSupport
