import Testing

@testable import PasteCore

/// Where a paste goes by what it holds: `accepts`, `image-service`, `-S`.
@Suite("Choosing a service by content", .tags(.config))
struct ServiceChoiceTests {
    let dpaste = BuiltInServices.dpaste
    let nullPointer = BuiltInServices.nullPointer
    let png = MediaType(imageType: "image/png")!
    let pdf = MediaType(name: "application/pdf", category: .binary, fileExtension: "pdf")

    /// A configured image-only host (a ShareX ImageUploader, say).
    var imageHost: ServiceProfile {
        var profile = ServiceProfile(name: "images", url: ConfigValue("https://img.example/upload"))
        profile.accepts = .images
        profile.contentField = "file"
        return profile
    }

    @Test("text goes to the named service, else the usual one, as before")
    func text() throws {
        #expect(
            try ServiceChoice.service(
                for: .plainText, from: "the clipboard", named: nil, usual: dpaste, imageService: nullPointer
            ).name == "dpaste")
        #expect(
            try ServiceChoice.service(
                for: .plainText, from: "the clipboard", named: nullPointer, usual: dpaste, imageService: nil
            ).name == "0x0")
    }

    @Test("an image goes to image-service; -S overrides it")
    func image() throws {
        #expect(
            try ServiceChoice.service(
                for: png, from: "the clipboard", named: nil, usual: dpaste, imageService: nullPointer
            )
            .name == "0x0")
        #expect(
            try ServiceChoice.service(
                for: png, from: "the clipboard", named: imageHost, usual: dpaste, imageService: nullPointer
            )
            .name == "images")
    }

    @Test("an image with no image-service and no -S is refused in one line naming image-service (65)")
    func noImageService() {
        let error = #expect(throws: ContentRefusal.self) {
            // Not even a usual service that accepts files takes it: only a named one does.
            try ServiceChoice.service(
                for: png, from: "the clipboard", named: nil, usual: nullPointer, imageService: nil)
        }
        #expect(
            error?.message
                == "the clipboard holds an image (PNG), and no service for images is chosen, so nothing was uploaded: "
                + "name one with -S NAME, or add 'image-service = NAME' under [paste] in the config "
                + "('paste --list-services' lists them)")
        #expect(error?.exitStatus == .badInput)
        #expect(error?.message.contains("\n") == false)
    }

    @Test("a text-only service refuses an image or a binary file, naming accepts (65)")
    func textOnlyRefuses() {
        let image = #expect(throws: ContentRefusal.self) {
            try ServiceChoice.service(for: png, from: "'shot.png'", named: dpaste, usual: dpaste, imageService: nil)
        }
        #expect(
            image?.message
                == "'shot.png' holds an image (PNG), but service 'dpaste' takes text only, so nothing was uploaded: "
                + "name a service that takes images with -S NAME, or add 'image-service = NAME' under [paste] in "
                + "the config")
        #expect(image?.exitStatus == .badInput)
        let binary = #expect(throws: ContentRefusal.self) {
            try ServiceChoice.service(
                for: pdf, from: "'report.pdf'", named: nil, usual: dpaste, imageService: nullPointer)
        }
        #expect(
            binary?.message
                == "'report.pdf' holds binary data (application/pdf), but service 'dpaste' takes text only, so "
                + "nothing was uploaded: name a service that takes files with -S NAME")
        #expect(binary?.exitStatus == .badInput)
    }

    @Test("a binary file goes to the named or usual service when it accepts files, never to image-service")
    func binaryFiles() throws {
        #expect(
            try ServiceChoice.service(for: pdf, from: "'report.pdf'", named: nil, usual: nullPointer, imageService: nil)
                .name == "0x0")
        #expect(
            try ServiceChoice.service(
                for: pdf, from: "'report.pdf'", named: nullPointer, usual: dpaste, imageService: nil
            )
            .name == "0x0")
        // An image host takes images, not other files.
        #expect(throws: ContentRefusal.self) {
            try ServiceChoice.service(
                for: pdf, from: "'report.pdf'", named: imageHost, usual: dpaste, imageService: nil)
        }
    }

    @Test("an image-only service refuses text")
    func imageOnlyRefusesText() {
        let error = #expect(throws: ContentRefusal.self) {
            try ServiceChoice.service(
                for: .plainText, from: "stdin", named: imageHost, usual: dpaste, imageService: nil)
        }
        #expect(
            error?.message
                == "service 'images' takes images only, not text, so nothing was uploaded: name a service that takes "
                + "text with -S NAME")
        #expect(error?.exitStatus == .badInput)
    }

    @Test("a service that accepts files but whose format cannot carry one is a config error (78)")
    func formatCannotCarry() {
        var json = BuiltInServices.bpaST
        json.accepts = [.text, .files]
        let error = #expect(throws: ContentRefusal.self) {
            try ServiceChoice.service(for: png, from: "the clipboard", named: json, usual: dpaste, imageService: nil)
        }
        #expect(error == .cannotCarryFiles(service: "bpa.st", format: "json"))
        #expect(error?.exitStatus == .config)
        // Text still goes there.
        #expect(
            (try? ServiceChoice.service(for: .plainText, from: "stdin", named: json, usual: dpaste, imageService: nil))?
                .name
                == "bpa.st")
    }
}

/// `accepts` and `image-service` in the config file.
@Suite("Config: accepts and image-service", .tags(.config))
struct ContentConfigTests {
    func load(_ text: String) throws(ConfigError) -> Configuration {
        let file: ConfigFile
        do { file = try ConfigFile(parsing: text, path: "/c") } catch { throw error }
        return try Configuration(file: file)
    }

    @Test("built-ins: 0x0 takes text and files, the others text only; image-service has no default")
    func builtIns() throws {
        let configuration = try load("")
        for profile in configuration.services {
            #expect(profile.accepts == (profile.name == "0x0" ? [.text, .files] : .text), "\(profile.name)")
        }
        #expect(configuration.settings.imageService == nil)
        #expect(configuration.imageServiceProfile == nil)
    }

    @Test(
        "accepts values",
        arguments: [
            ("text", .text), ("files", .files), ("text, files", [.text, .files]), ("Files,TEXT", [.text, .files]),
            ("images", .images),
        ] as [(String, ContentKinds)])
    func acceptsValues(value: String, kinds: ContentKinds) throws {
        let configuration = try load(
            """
            [service "host"]
                url = https://host.example/
                accepts = \(value)
            """)
        #expect(try configuration.service(named: "host").accepts == kinds)
    }

    @Test(
        "an unknown accepts value is refused at load with file and line (78)",
        arguments: ["pictures", "", "text,,nope"])
    func badAccepts(value: String) {
        let error = #expect(throws: ConfigError.self) {
            try load(
                """
                [service "host"]
                    url = https://host.example/
                    accepts = \(value)
                """)
        }
        #expect(error?.message.hasPrefix("/c:3: bad value '\(value)' for 'accepts'") == true, "\(error?.message ?? "")")
        #expect(error?.exitStatus == .config)
    }

    @Test("accepts = files needs a format that can carry a file")
    func acceptsNeedsCarryingFormat() {
        let error = #expect(throws: ConfigError.self) {
            try load(
                """
                [service "host"]
                    url = https://host.example/
                    format = form
                    accepts = text, files
                """)
        }
        #expect(
            error?.message
                == "/c:4: bad value 'text, files' for 'accepts': expected text for format = form (files go as multipart or raw)"
        )
    }

    @Test("image-service names a service that takes images, declared anywhere; its base's accepts is inherited")
    func imageService() throws {
        let configuration = try load(
            """
            [paste]
                image-service = myhost
            [service "myhost"]
                base = 0x0
                url = https://files.example/
            """)
        #expect(configuration.settings.imageService == "myhost")
        #expect(configuration.imageServiceProfile?.name == "myhost")
        #expect(configuration.imageServiceProfile?.accepts == [.text, .files])
        #expect(try load("[paste]\nimage-service = 0x0").imageServiceProfile?.name == "0x0")
    }

    @Test("an unknown or text-only image-service is refused at load with file and line (78)")
    func badImageService() {
        let unknown = #expect(throws: ConfigError.self) {
            try load("[paste]\n  service = dpaste\n  image-service = nope")
        }
        #expect(unknown?.message.hasPrefix("/c:3: unknown service 'nope'; known: dpaste") == true)
        #expect(unknown?.exitStatus == .config)
        let textOnly = #expect(throws: ConfigError.self) { try load("[paste]\nimage-service = dpaste") }
        #expect(
            textOnly?.message
                == "/c:2: bad value 'dpaste' for 'image-service': expected a service that accepts images or files ('dpaste' accepts text)"
        )
        let empty = #expect(throws: ConfigError.self) { try load("[paste]\nimage-service =") }
        #expect(empty?.message == "/c:2: bad value '' for 'image-service': expected a service name")
    }
}
