// The suites arrive with wave 3 (issues #18, #19).
import Testing
