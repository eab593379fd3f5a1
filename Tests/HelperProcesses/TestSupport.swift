// The process helpers moved into TestSupport. This old name only re-exports it, so that tests written against
// it on other branches still build; remove it once nothing imports HelperProcesses.
@_exported import TestSupport
