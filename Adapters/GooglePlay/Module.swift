// The module starts here; its files arrive with wave 3 (issues #18, #19).
import EntitlementKit
