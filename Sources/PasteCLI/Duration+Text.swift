extension Duration {
    /// `0.5s`, `2.3s` under ten seconds, whole seconds above (`retrying in …`).
    var secondsText: String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value < 10 ? "\((value * 10).rounded() / 10)s" : "\(Int(value))s"
    }
}
