/// The language of a file, from its extension, for services that highlight (`-f x.py` is
/// `-l python` unless `-l` is given).
///
/// The names are Pygments lexer names, which pinnwand (bpa.st), dpaste and most self-hosted
/// pastebins use; a name a service does not know is its own business to refuse or ignore.
public enum Lexers {
    /// Extension (lowercased, without the dot) to lexer name.
    static let byExtension: [String: String] = [
        "py": "python", "pyw": "python", "rs": "rust", "swift": "swift", "c": "c", "h": "c",
        "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "m": "objective-c",
        "js": "javascript", "mjs": "javascript", "cjs": "javascript", "jsx": "jsx", "ts": "typescript",
        "tsx": "tsx", "go": "go", "java": "java", "kt": "kotlin", "kts": "kotlin", "scala": "scala",
        "rb": "ruby", "php": "php", "pl": "perl", "pm": "perl", "lua": "lua", "r": "r", "jl": "julia",
        "hs": "haskell", "ml": "ocaml", "ex": "elixir", "exs": "elixir", "erl": "erlang", "clj": "clojure",
        "cs": "csharp", "fs": "fsharp", "vb": "vbnet", "dart": "dart", "zig": "zig", "nim": "nim",
        "sh": "bash", "bash": "bash", "zsh": "zsh", "fish": "fish", "ps1": "powershell",
        "md": "markdown", "markdown": "markdown", "rst": "rst", "tex": "latex",
        "json": "json", "yaml": "yaml", "yml": "yaml", "toml": "toml", "ini": "ini", "cfg": "ini",
        "xml": "xml", "html": "html", "htm": "html", "css": "css", "scss": "scss", "sass": "sass",
        "sql": "sql", "diff": "diff", "patch": "diff", "dockerfile": "docker", "mk": "make",
        "cmake": "cmake", "nix": "nix", "tf": "terraform", "proto": "protobuf", "graphql": "graphql",
        "vim": "vim", "el": "emacs-lisp", "lisp": "common-lisp", "scm": "scheme", "asm": "nasm",
        "s": "gas",
    ]

    /// Whole file names that say their language.
    static let byName: [String: String] = [
        "makefile": "make", "gnumakefile": "make", "dockerfile": "docker", "cmakelists.txt": "cmake",
        "meson.build": "meson", "package.swift": "swift", "gemfile": "ruby", "rakefile": "ruby",
    ]

    /// Extensions that say a file is plain text: no language is sent for it, and none is
    /// guessed from its bytes.
    static let plainTextExtensions: Set<String> = ["txt", "text", "log"]

    /// Whether a file's name says it is plain text (`notes.txt`, `build.log`); a name in
    /// `byName` (`CMakeLists.txt`) says its language instead.
    public static func isPlainText(fileName: String) -> Bool {
        let base = (fileName.split(separator: "/").last.map(String.init) ?? fileName).lowercased()
        guard byName[base] == nil, let dot = base.lastIndex(of: "."), dot != base.startIndex else { return false }
        return plainTextExtensions.contains(String(base[base.index(after: dot)...]))
    }

    /// The lexer for a file name (`notes.py` → `python`), or nil when the name says nothing.
    public static func language(forFileName fileName: String) -> String? {
        let base = (fileName.split(separator: "/").last.map(String.init) ?? fileName).lowercased()
        if let language = byName[base] { return language }
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        return byExtension[String(base[base.index(after: dot)...])]
    }
}
