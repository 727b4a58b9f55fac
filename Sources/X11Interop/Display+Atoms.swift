internal import CX11
internal import Glibc

extension Display {
    /// The atom for `name`, interning it on the server the first time (then cached).
    ///
    /// Wraps `XInternAtom(only_if_exists: False)`.
    public func atom(_ name: String) -> Atom {
        if let cached = atomCache[name] { return cached }
        let atom = Atom(rawValue: XInternAtom(pointer, name, 0))
        atomCache[name] = atom
        return atom
    }

    /// Interns several atoms in one round trip. Wraps `XInternAtoms`.
    ///
    /// Each name is asked once, however often it is listed (Xlib would send a request and read
    /// a reply for every copy), and the protocol's predefined atoms are never asked
    /// (`predefinedAtoms`, in the cache from the start).
    ///
    /// PERF(hotkey): each name is hashed once, for its look in the cache; a copy is found among
    /// the few missing names by comparing them, and the answer is put together from the
    /// looks and the reply. A `Set` of the names asked and every name looked up again at
    /// the end were 70,000 instructions of the reader's 23 names (callgrind), as much as Xlib
    /// spent asking for them.
    public func atoms(_ names: [String]) -> [Atom] {
        // Each name's atom when it is cached; for the others, where they are among `missing`
        // (-1 for a cached one), their atom put in once the reply is read.
        var answer: [Atom] = []
        answer.reserveCapacity(names.count)
        var missing: [String] = []
        var slots: [Int] = []
        slots.reserveCapacity(names.count)
        for name in names {
            if let atom = atomCache[name] {
                answer.append(atom)
                slots.append(-1)
                continue
            }
            answer.append(Atom(rawValue: 0))
            if let slot = missing.firstIndex(of: name) {
                slots.append(slot)
            } else {
                slots.append(missing.count)
                missing.append(name)
            }
        }
        guard !missing.isEmpty else { return answer }
        var cStrings = missing.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var results = [UInt](repeating: 0, count: missing.count)
        XInternAtoms(pointer, &cStrings, Int32(missing.count), 0, &results)
        for (name, raw) in zip(missing, results) { atomCache[name] = Atom(rawValue: raw) }
        for index in names.indices where slots[index] >= 0 { answer[index] = Atom(rawValue: results[slots[index]]) }
        return answer
    }

    /// The atoms the core protocol defines, with the same value on every server (`X11/Xatom.h`;
    /// those a clipboard or a window of ours names): known without a round trip.
    static let predefinedAtoms: [String: Atom] = [
        "PRIMARY": Atom(rawValue: 1), "SECONDARY": Atom(rawValue: 2), "ATOM": Atom(rawValue: 4),
        "CARDINAL": Atom(rawValue: 6), "INTEGER": Atom(rawValue: 19), "STRING": Atom(rawValue: 31),
        "WINDOW": Atom(rawValue: 33), "WM_NAME": Atom(rawValue: 39), "WM_CLASS": Atom(rawValue: 67),
    ]

    /// The name of `atom`, or nil for `None` or an atom the server does not know.
    ///
    /// Wraps `XGetAtomName`; the returned C string is copied and `XFree`d here.
    public func name(of atom: Atom) -> String? {
        guard !atom.isNone else { return nil }
        _ = takeLastError()
        guard let cName = XGetAtomName(pointer, atom.rawValue) else {
            _ = takeLastError()  // BadAtom, recorded by the handler: the answer is "no name".
            return nil
        }
        defer { XFree(cName) }
        return String(cString: cName)
    }

    /// The names of several atoms in one round trip; an unknown atom gets `"atom <n>"`.
    ///
    /// Wraps `XGetAtomNames`; every returned string is copied and `XFree`d here.
    public func names(of atoms: [Atom]) -> [String] {
        guard !atoms.isEmpty else { return [] }
        var raw = atoms.map(\.rawValue)
        var results = [UnsafeMutablePointer<CChar>?](repeating: nil, count: atoms.count)
        _ = takeLastError()
        let status = XGetAtomNames(pointer, &raw, Int32(raw.count), &results)
        _ = takeLastError()
        defer { results.forEach { if let name = $0 { XFree(name) } } }
        return zip(atoms, results).map { atom, cName in
            guard status != 0, let cName else { return name(of: atom) ?? "atom \(atom.rawValue)" }
            return String(cString: cName)
        }
    }
}
