import PasteCore

/// What `body` returns, or the part's own error that it threw (`PartError.underlying`), so that
/// `#expect(throws:)` can name the part's error: the builder throws each as a `PartError`.
func unwrapped<Value>(_ body: () throws(PartError) -> Value) throws -> Value {
    do { return try body() } catch { throw error.underlying }
}
