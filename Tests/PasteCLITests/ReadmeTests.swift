import Foundation
import Testing

/// The README is a README (issue 27): under 16 KB, the quick start as it always was, and every
/// relative link in it (and in the docs/ pages it sends the reader to) leads to a file.
@Suite("README and docs/")
struct ReadmeTests {
    /// The README's size limit: what a newcomer reads; the rest lives in docs/ and the man pages.
    static let maximumBytes = 16 * 1024

    /// The relative targets of the Markdown links and images in `text`, without any `#fragment`.
    static func relativeLinks(in text: String) -> [String] {
        text.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }.filter {
            !$0.hasPrefix("http://") && !$0.hasPrefix("https://") && !$0.hasPrefix("#") && !$0.hasPrefix("mailto:")
        }.map { String($0.prefix { $0 != "#" }) }
    }

    @Test("the README is under 16 KB and keeps the two quick-start commands")
    func sizeAndQuickStart() throws {
        let readme = try SourceTree.text("README.md")
        #expect(readme.utf8.count < Self.maximumBytes, "README.md is \(readme.utf8.count) bytes")
        #expect(
            readme.contains(
                "    scripts/demo     # build, start a pastebin on 127.0.0.1, paste real clipboard text, read it back\n"
                    + "    scripts/test     # install what is needed, build, and run every test (under Xvfb if no display)\n"
            ))
    }

    @Test(
        "every relative link resolves",
        arguments: [
            "README.md", "docs/design.md", "docs/performance.md", "docs/outbox.md", "docs/secret-guard.md",
            "docs/configuration.md", "docs/recipes.md",
        ])
    func linksResolve(_ page: String) throws {
        let text = try SourceTree.text(page)
        let folder = URL(fileURLWithPath: SourceTree.path(page)).deletingLastPathComponent()
        let links = Self.relativeLinks(in: text)
        if page == "README.md" { #expect(links.count >= 8) }
        for link in links {
            let target = folder.appendingPathComponent(link).standardized.path
            #expect(FileManager.default.fileExists(atPath: target), "\(page) links to \(link), which is not there")
        }
    }
}
