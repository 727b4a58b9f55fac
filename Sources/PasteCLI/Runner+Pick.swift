import Alerts
import FoundationEssentials
import Clipboard
import PasteCore
import Stores
import SystemInterop

extension Runner {
    /// `--pick`: choose an earlier paste in a window; its URL goes on the clipboard.
    ///
    /// The configuration applies as for an upload: `copy = false` keeps the clipboard as it is,
    /// and with windows shown (`notify`) a failure is shown in one too. (`clipboard-timeout` is
    /// about reading a selection, which `--pick` never does.)
    func pick() throws -> ExitStatus {
        let resolver = PlanResolver(
            invocation: invocation, context: context, facts: .current(for: invocation, streams: context.streams))
        let settings: Settings
        do {
            settings = try loadConfiguration().settings
        } catch {
            let windows = DesktopWindows(plan: resolver.windows(for: Settings()), output: output)
            if windows.isShown { windows.notifyFailure(error) }
            throw error
        }
        let windows = DesktopWindows(plan: resolver.windows(for: settings), output: output)
        do {
            return try pick(
                windows: windows, copy: resolver.copyTarget(for: settings),
                clipboard: PlanResolver.makeClipboard(
                    resolver.clipboardChoice(for: settings)?.backend, context: context))
        } catch let error as any PasteError {
            if windows.isShown { windows.notifyFailure(error) }
            throw error
        }
    }

    private func pick(windows: DesktopWindows, copy: Selection?, clipboard: SessionClipboard) throws -> ExitStatus {
        let records = try History(context: context).records().reversed()
        guard !records.isEmpty else {
            throw InputError.empty(source: "the history")
        }
        let now = context.now()
        let rows = Self.pickRows(Array(records), now: now)
        guard let index = try windows.pick(title: "Earlier pastes", rows: rows) else { return .cancelled }
        let url = Array(records)[index].url
        output.result(url, keeping: url)
        if let copy {
            let outcome = DeliverStage(copy: copy, preparedCopy: nil, windows: windows, output: output)
                .copyToClipboard(url, to: copy, clipboard: clipboard)
            // "Copied" only once a reader could get it, as after an upload.
            if outcome == .copied && windows.isShown { windows.notify(success: true, text: url) }
        }
        return .success
    }

    /// The picker's rows, one per record: the title (else what the paste was, its first line,
    /// or its URL), then service, age and the URL, which is left out when the first line
    /// shows it already (a paste whose title is its URL).
    static func pickRows(_ records: [HistoryRecord], now: Date) -> [PickRow] {
        records.map { record in
            let primary = record.title ?? contentSummary(of: record) ?? record.preview ?? record.url
            let age = "\(record.service) · \(Age.text(from: record.time, to: now))"
            return PickRow(primary: primary, secondary: primary == record.url ? age : age + " · " + record.url)
        }
    }

    /// What an image or another binary paste was, for a row with no title: `image/png ·
    /// 120.4 KiB`. Nil for text (and for records from before types were recorded), whose first
    /// line says more.
    static func contentSummary(of record: HistoryRecord) -> String? {
        guard let type = record.type, MediaType(recordedName: type).category != .text else { return nil }
        return "\(type) · \(ProgressBar.byteText(record.byteCount))"
    }
}
