import Clipboard
import PasteCore
import ShareX
import SystemInterop
import Upload

/// One run of `paste` for an invocation that is ours: the action it names.
///
/// An upload and `--retry` run the pipeline (`UploadPipeline`) on a plan resolved once
/// (`PlanResolver`); the other actions are small and live in `Runner+…` files.
struct Runner {
    var invocation: Invocation
    var context: Context
    var output: Output
    /// The transport, the backoff's wait and the background flush: the real ones but in tests.
    var seams: Seams

    init(invocation: Invocation, context: Context, output: Output, seams: Seams = .live) {
        self.invocation = invocation
        self.context = context
        self.output = output
        self.seams = seams
        self.output.isQuiet = invocation.isQuiet
        self.output.isJSON = invocation.isJSON
    }

    func run() throws -> ExitStatus {
        switch invocation.action {
        case .help:
            output.text(helpText(programName: output.programName))
            return .success
        case .version:
            output.text(versionText())
            return .success
        case .listServices:
            try listServices()
            return .success
        case .initConfig:
            try writeStarterConfig()
            return .success
        case .history:
            try printHistory()
            return .success
        case .retry:
            return try retryOutbox()
        case .outbox(let command):
            return try runOutbox(command)
        case .pick:
            return try pick()
        case .delete(let url):
            return try delete(url: url)
        case .deleteLast:
            return try deleteLast()
        case .importShareX(let path):
            return try importShareX(path)
        case .bindKey(let key):
            return try bindKey(key)
        case .unbindKey:
            return try unbindKey()
        case .upload:
            return try upload()
        }
    }

    // MARK: - Configuration

    func loadConfiguration() throws(ConfigError) -> Configuration {
        try Configuration.load(
            explicitPath: invocation.configPath, context: context,
            shareX: { path, name, home throws(ShareXError) in
                try ShareXUploader.load(path: path, name: name, home: home)
            })
    }

    /// How the transfers of an action outside the pipeline run (`--delete`).
    func transfer(_ settings: Settings) -> RunPlan.Transfer {
        PlanResolver.transfer(invocation, settings, showsProgress: false)
    }

    /// How requests to `profile` connect; a service that turns TLS checks off is warned about.
    func connectionPolicy(for profile: ServiceProfile, _ configuration: Configuration) throws -> ConnectionPolicy {
        let (policy, warning) = try PlanResolver.connection(
            for: profile, paste: configuration.settings.connection, context: context,
            isInsecure: invocation.isInsecure)
        if let warning { output.warning(warning) }
        return policy
    }
}
