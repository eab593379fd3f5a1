// Scaffold: replaced by the module's real content.
