import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaSwift

/// What the app's code says about its bundle: CloudKit used, containers opened, subscriptions
/// saved, silent pushes relied on, sharing (the first place of each), read from each file's tokens.
struct ShipFacts {
    var usesCloudKit: SourceLocation?
    var containers: [(id: String, at: SourceLocation)] = []
    var subscriptions: SourceLocation?
    var silentPush: (what: String, at: SourceLocation)?
    var sharing: (what: String, at: SourceLocation)?

    /// Every word the switches below name: any other name reaches only their `default`.
    private static let names = ScanNames([
        "CKContainer", "NSPersistentCloudKitContainer", "CKSyncEngine", "privateCloudDatabase", "publicCloudDatabase", "sharedCloudDatabase",
        "cloudKitContainerOptions", "NSPersistentCloudKitContainerOptions", "CKQuerySubscription", "CKDatabaseSubscription",
        "CKRecordZoneSubscription", "shouldSendContentAvailable", "UICloudSharingController", "CKShareTransferRepresentation",
        "userDidAcceptCloudKitShareWith", "CKShare", "share",
    ])

    /// The facts of one file.
    init(_ r: SwiftCallReader, _ g: ScanGlobals) {
        let s = r.s
        for i in 0..<s.tokens.count {
            guard let known = Self.names.index(s, i) else { continue }
            let word = Self.names.words[known]
            switch word {
            case "CKContainer", "NSPersistentCloudKitContainer", "CKSyncEngine", "privateCloudDatabase", "publicCloudDatabase", "sharedCloudDatabase", "cloudKitContainerOptions":
                if usesCloudKit == nil { usesCloudKit = s.location(i) }
            default: break
            }
            switch word {
            case "CKContainer" where s.is(i + 1, .leftParen) && !s.is(i - 1, .period):
                if let a = r.argument(i + 1, "identifier"), let c = Self.container(r, a, g) { containers.append(c) }
            case "NSPersistentCloudKitContainerOptions" where s.is(i + 1, .leftParen):
                if let a = r.argument(i + 1, "containerIdentifier"), let c = Self.container(r, a, g) { containers.append(c) }
            case "CKQuerySubscription", "CKDatabaseSubscription", "CKRecordZoneSubscription":
                if subscriptions == nil, s.is(i + 1, .leftParen) { subscriptions = s.location(i) }
            case "CKSyncEngine" where silentPush == nil:
                silentPush = ("CKSyncEngine", s.location(i))
            case "shouldSendContentAvailable" where silentPush == nil && s.is(i + 1, "=") && s.is(i + 2, "true"):
                silentPush = ("shouldSendContentAvailable = true", s.location(i))
            case "UICloudSharingController", "CKShareTransferRepresentation", "userDidAcceptCloudKitShareWith":
                if sharing == nil { sharing = (word, s.location(i)) }
            case "CKShare" where sharing == nil && s.is(i + 1, .leftParen) && !s.is(i - 1, .period):
                sharing = ("CKShare(...)", s.location(i))
            case "share" where sharing == nil && s.is(i + 1, .leftParen) && s.is(i - 1, .period) && s.isName(i - 2) && s.name(i - 2).lowercased().hasSuffix("container"):
                sharing = ("\(s.name(i - 2)).share(...)", s.location(i - 2))
            default: break
            }
        }
    }

    /// The container identifier at token `a`, when it resolves to one string.
    private static func container(_ r: SwiftCallReader, _ a: Int, _ g: ScanGlobals) -> (id: String, at: SourceLocation)? {
        guard let v = r.values(a, r.body(at: a), g), v.count == 1, case .string(let id) = v[0] else { return nil }
        return (id, r.s.location(a))
    }

    init() {}

    /// The facts of every file, in reading order: the first place of each.
    static func merged(_ all: [ShipFacts]) -> ShipFacts {
        var out = ShipFacts()
        for f in all {
            out.usesCloudKit = out.usesCloudKit ?? f.usesCloudKit
            out.containers += f.containers
            out.subscriptions = out.subscriptions ?? f.subscriptions
            out.silentPush = out.silentPush ?? f.silentPush
            out.sharing = out.sharing ?? f.sharing
        }
        return out
    }
}

/// The app's `.entitlements` and `Info.plist` files under the code folders, read with our own
/// bounded reader (`PropertyList`) and checked against the code and ckschema.yaml's
/// `container:` (docs/scan.md, CK920-CK928). Silent on what it cannot tell: a value with a
/// build variable (`iCloud.$(CFBundleIdentifier)`), a key several targets disagree on.
enum AppBundle {
    /// A property list file and what was read from it.
    struct File {
        var path: String
        var root: PropertyList.Node
        var isEntitlements: Bool
    }

    /// True for the name (or path) of a property list the checks read: an `.entitlements`
    /// file or an `Info.plist`. The scan's one walk of the folders (`CodeScan.walkSources`)
    /// gives them beside the sources.
    static func isPropertyList(_ name: String) -> Bool { name.hasSuffix(".entitlements") || name.hasSuffix("Info.plist") }

    /// Reads each file; one that cannot be read is a CK920 warning at the place it fails.
    static func read(_ paths: [String], load: (String) -> Data?) -> (files: [File], diagnostics: [Diagnostic]) {
        var files: [File] = [], diagnostics: [Diagnostic] = []
        for path in paths {
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
            guard size <= PropertyList.maxBytes, let data = load(path) else {
                let why = size > PropertyList.maxBytes ? "the file is \(size) bytes, over the \(PropertyList.maxBytes) bytes a property list may have" : "the file cannot be read"
                diagnostics.append(Diagnostic(rule: ShipRules.unreadable, "not read: \(why); its checks are skipped", at: SourceLocation(file: path, line: 1, column: 1), fix: "an entitlements file or Info.plist is a few kilobytes: check it is the right file"))
                continue
            }
            switch PropertyList.parse(data) {
            case .success(let root):
                guard case .dict = root.value else {
                    diagnostics.append(Diagnostic(rule: ShipRules.unreadable, "not read: the root is \(root.kind == "array" ? "an" : "a") \(root.kind), not a dictionary; its checks are skipped", at: SourceLocation(file: path, line: root.line, column: root.column)))
                    continue
                }
                files.append(File(path: path, root: root, isEntitlements: path.hasSuffix(".entitlements")))
            case .failure(let f):
                diagnostics.append(Diagnostic(rule: ShipRules.unreadable, "not read: \(ControlCharacters.escaped(f.message)); its checks are skipped", at: SourceLocation(file: path, line: f.line, column: f.column), fix: "make it a valid property list (plutil -lint)"))
            }
        }
        return (files, diagnostics)
    }

    static let containersKey = "com.apple.developer.icloud-container-identifiers"
    static let servicesKey = "com.apple.developer.icloud-services"
    static let environmentKey = "com.apple.developer.icloud-container-environment"
    static let apsKeys = ["aps-environment", "com.apple.developer.aps-environment"]

    /// A value Xcode fills in at build time: the scan cannot tell what it becomes.
    static func variable(_ s: String) -> Bool { s.contains("$(") || s.contains("${") }

    static func loc(_ f: File, _ e: PropertyList.Entry?) -> SourceLocation {
        SourceLocation(file: f.path, line: e?.line ?? f.root.line, column: e?.column ?? f.root.column)
    }

    static func shown(_ s: String) -> String { ControlCharacters.escaped(s) }

    /// Every finding on the bundle's files, given the code's facts and ckschema.yaml's container.
    static func check(_ files: [File], facts: ShipFacts, container: String?) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let entitlements = files.filter(\.isEntitlements)
        func services(_ f: File) -> [String]? { f.root.entry(servicesKey)?.value.strings }
        func cloudKit(_ f: File) -> Bool { services(f)?.contains { $0 == "CloudKit" || $0 == "CloudKit-Anonymous" || $0 == "*" } == true }
        func ids(_ f: File) -> [String]? { f.root.entry(containersKey)?.value.strings }

        // CK921: ckschema.yaml's container, in each CloudKit entitlements file that lists containers.
        if let container {
            for f in entitlements {
                guard let e = f.root.entry(containersKey), let list = e.value.strings, !list.contains(where: variable) else { continue }
                guard cloudKit(f) || !list.isEmpty, !list.contains(container) else { continue }
                let listed = list.isEmpty ? "no container" : list.map { "'\(shown($0))'" }.joined(separator: ", ")
                out.append(Diagnostic(rule: ShipRules.containerNotEntitled, "\(containersKey) lists \(listed), not '\(shown(container))', the container of ckschema.yaml (or the schema's 'container:'): this build reads and writes another container's database", at: loc(f, e), fix: "add <string>\(shown(container))</string> to the array (Xcode: Signing & Capabilities, iCloud, Containers), or correct 'container:' in ckschema.yaml"))
            }
        }
        // CK922: a container the code opens that no entitlements file lists.
        let lists = entitlements.compactMap(ids)
        if !lists.isEmpty, !lists.joined().contains(where: variable) {
            let all = Set(lists.joined())
            for c in facts.containers where !all.contains(c.id) {
                let where_ = entitlements.filter { ids($0) != nil }.map { "\(shown($0.path)):\(loc($0, $0.root.entry(containersKey)).line)" }.joined(separator: ", ")
                out.append(Diagnostic(rule: ShipRules.codeContainerNotEntitled, "the code opens container '\(shown(c.id))', which no entitlements file lists (\(where_)): CloudKit refuses it", at: c.at, fix: "add '\(shown(c.id))' to \(containersKey), or open a container the entitlements list"))
            }
        }
        // CK923: CloudKit used, and no entitlements file with iCloud services names it.
        if let used = facts.usesCloudKit, !entitlements.contains(where: cloudKit) {
            for f in entitlements {
                guard let e = f.root.entry(servicesKey), let list = e.value.strings else { continue }
                let listed = list.isEmpty ? "no service" : list.map { "'\(shown($0))'" }.joined(separator: ", ")
                out.append(Diagnostic(rule: ShipRules.noCloudKitService, "\(servicesKey) lists \(listed), not CloudKit, while the code uses CloudKit (\(shown(used.description))): every CloudKit call fails", at: loc(f, e), fix: "add <string>CloudKit</string> to the array (Xcode: Signing & Capabilities, iCloud, Services: CloudKit)"))
            }
        }
        // CK924: the environment is one of two strings.
        var pinned: [(file: File, env: String?, at: SourceLocation)] = []
        for f in entitlements {
            let e = f.root.entry(environmentKey)
            if let e {
                // `$(CLOUDKIT_ENVIRONMENT)`: a build setting the scan cannot read, not checked.
                if let v = e.value.string, variable(v) { continue }
                guard let v = e.value.string, v == "Development" || v == "Production" else {
                    let what = e.value.string.map { "the string '\(shown($0))'" } ?? "\(e.value.kind == "array" ? "an" : "a") \(e.value.kind)"
                    out.append(Diagnostic(rule: ShipRules.environmentInvalid, "\(environmentKey) is \(what); CloudKit reads only the string Development or Production", at: loc(f, e), fix: "write <string>Production</string> (or Development), or remove the key and let the export choose"))
                    continue
                }
                pinned.append((f, v, loc(f, e)))
            } else if cloudKit(f) || ids(f)?.isEmpty == false {
                pinned.append((f, nil, loc(f, f.root.entry(containersKey))))
            }
        }
        // CK925: two files of one container that pin it differently.
        for (a, x) in pinned.enumerated() {
            for y in pinned[(a + 1)...] {
                guard x.env != y.env, let xs = ids(x.file), let ys = ids(y.file) else { continue }
                guard let shared = xs.first(where: { !variable($0) && ys.contains($0) }) else { continue }
                let (at, other) = x.env == nil ? (y, x) : (x, y)
                let mine = at.env.map { "pins '\(shown(shared))' to \($0)" } ?? "does not pin '\(shown(shared))'"
                let theirs = other.env.map { "pins it to \($0)" } ?? "does not pin it"
                out.append(Diagnostic(rule: ShipRules.environmentMismatch, "\(environmentKey) \(mine), but \(shown(other.file.path)):\(other.at.line) \(theirs): the two builds use two different databases of one container", at: at.at, fix: "pin both files to one environment, or neither"))
            }
        }
        // CK926: subscriptions saved, and no CloudKit entitlements file has push.
        let ck = entitlements.filter(cloudKit)
        if let sub = facts.subscriptions, !ck.isEmpty, !ck.contains(where: { f in apsKeys.contains { f.root.entry($0) != nil } }) {
            for f in ck {
                out.append(Diagnostic(rule: ShipRules.noPush, "no aps-environment while the code saves CloudKit subscriptions (\(shown(sub.description))): their notifications never arrive", at: loc(f, f.root.entry(servicesKey)), fix: "add the Push Notifications capability (<key>aps-environment</key><string>development</string>; macOS: com.apple.developer.aps-environment)"))
            }
        }
        // The app's own Info.plists: not an extension's, a watch app's, an App Clip's or a test bundle's.
        let infos = files.filter { f in
            !f.isEntitlements && !["NSExtension", "WKWatchKitApp", "WKApplication", "NSAppClip"].contains { f.root.entry($0) != nil }
                && f.root.entry("CFBundlePackageType")?.value.string != "BNDL"
        }
        // CK927: silent pushes, and no iOS app Info.plist has remote-notification.
        let ios = infos.filter { f in ["UIBackgroundModes", "LSRequiresIPhoneOS", "UIApplicationSceneManifest", "UILaunchScreen", "UILaunchStoryboardName", "UISupportedInterfaceOrientations", "UIRequiredDeviceCapabilities"].contains { f.root.entry($0) != nil } }
        if let push = facts.silentPush, !ios.contains(where: { $0.root.entry("UIBackgroundModes")?.value.strings?.contains("remote-notification") == true }) {
            for f in ios {
                let e = f.root.entry("UIBackgroundModes")
                out.append(Diagnostic(rule: ShipRules.noRemoteNotification, "\(e == nil ? "no UIBackgroundModes" : "UIBackgroundModes without remote-notification") while the code relies on silent pushes (\(push.what) at \(shown(push.at.description))): the app is not woken to fetch changes", at: loc(f, e), fix: "add <string>remote-notification</string> to UIBackgroundModes (Xcode: Signing & Capabilities, Background Modes, Remote notifications)"))
            }
        }
        // CK928: sharing, and no app Info.plist says CKSharingSupported.
        if let share = facts.sharing, !infos.contains(where: { $0.root.entry("CKSharingSupported")?.value.value == .bool(true) }) {
            for f in infos {
                let e = f.root.entry("CKSharingSupported")
                out.append(Diagnostic(rule: ShipRules.sharingNotSupported, "\(e == nil ? "no CKSharingSupported" : "CKSharingSupported is not true") while the code shares records (\(shown(share.what)) at \(shown(share.at.description))): a share's link does not open the app", at: loc(f, e), fix: "add <key>CKSharingSupported</key><true/> to the app's Info.plist"))
            }
        }
        return out
    }
}
