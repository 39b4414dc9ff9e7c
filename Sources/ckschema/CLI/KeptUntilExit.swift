/// Values a command leaves for the process's exit to reclaim instead of freeing them.
///
/// A command runs once and the process exits right after it (`CLI.main`), so a large result
/// (an imported schema of 100,000 fields) need not be torn down value by value: the
/// reference kept here is deliberately never released. Only the executable does this; the
/// library frees everything it makes.
enum KeptUntilExit {
    private final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Keeps `value` alive until the process exits.
    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Box(value))
    }
}
