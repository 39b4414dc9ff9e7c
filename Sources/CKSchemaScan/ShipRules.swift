import CKSchemaModel

/// The codes for what the app ships beyond its calls (issue 34): its entitlements and
/// Info.plist (CK920-CK928) and the per-record errors its batch code swallows (CK930-CK931).
/// Reported by `ckschema scan` and `check` with `code:`; docs/scan.md and docs/rules.md.
public enum ShipRules {
    static let entitlements = "developer.apple.com/documentation/bundleresources/entitlements"
    static let containers = "com.apple.developer.icloud-container-identifiers (\(entitlements)/com.apple.developer.icloud-container-identifiers): the containers the app may use"
    static let services = "com.apple.developer.icloud-services (\(entitlements)/com.apple.developer.icloud-services): CloudKit or CloudKit-Anonymous for CloudKit"
    static let environment = "com.apple.developer.icloud-container-environment (\(entitlements)/com.apple.developer.icloud-container-environment): the string Development or Production"
    static let aps = "aps-environment (\(entitlements)/aps-environment; macOS: com.apple.developer.aps-environment): push notifications, which CloudKit subscriptions deliver"
    static let backgroundModes = "UIBackgroundModes (developer.apple.com/documentation/bundleresources/information-property-list/uibackgroundmodes): remote-notification wakes the app for a silent push"
    static let sharing = "CKSharingSupported (developer.apple.com/documentation/bundleresources/information-property-list/cksharingsupported): true for the system to open the app on a share's URL"

    /// An `.entitlements` or `Info.plist` the scan could not read (malformed, an entity, too large).
    public static let unreadable = RuleInfo(code: "CK920", name: "plist-unreadable", summary: "An .entitlements or Info.plist under the code folders is not a property list the scan can read (malformed XML, a DOCTYPE entity, a bad binary list, over 1 MB): its checks are skipped.", defaultSeverity: .warning, source: "ckschema: a property list is untrusted input, read by a bounded reader of its own")
    /// ckschema.yaml's `container:` missing from the entitlements' container identifiers.
    public static let containerNotEntitled = RuleInfo(code: "CK921", name: "entitlement-lacks-container", summary: "The entitlements' com.apple.developer.icloud-container-identifiers does not list ckschema.yaml's container: the build talks to another container (another database).", defaultSeverity: .error, source: containers)
    /// `CKContainer(identifier:)` of a container no entitlement lists.
    public static let codeContainerNotEntitled = RuleInfo(code: "CK922", name: "code-container-not-entitled", summary: "The code opens a container (CKContainer(identifier:), NSPersistentCloudKitContainerOptions(containerIdentifier:)) that no entitlements file lists: CloudKit refuses it.", defaultSeverity: .error, source: containers)
    /// iCloud services without CloudKit while the code uses CloudKit.
    public static let noCloudKitService = RuleInfo(code: "CK923", name: "entitlement-lacks-cloudkit", summary: "The entitlements' com.apple.developer.icloud-services lists no CloudKit (or CloudKit-Anonymous) while the code uses CloudKit.", defaultSeverity: .error, source: services)
    /// `icloud-container-environment` that is not the string Development or Production.
    public static let environmentInvalid = RuleInfo(code: "CK924", name: "entitlement-environment-invalid", summary: "com.apple.developer.icloud-container-environment is not one of the strings Development and Production (an array is what one app shipped).", defaultSeverity: .error, source: environment)
    /// Two targets of one container pinned to different environments, or one pinned and one not.
    public static let environmentMismatch = RuleInfo(code: "CK925", name: "entitlement-environment-mismatch", summary: "Two entitlements files of one container pin different environments, or one pins it and the other not: the builds read and write two different databases.", defaultSeverity: .warning, source: environment)
    /// No `aps-environment` while the code saves subscriptions.
    public static let noPush = RuleInfo(code: "CK926", name: "entitlement-lacks-push", summary: "The code saves CloudKit subscriptions but no CloudKit entitlements file has aps-environment: their notifications never arrive.", defaultSeverity: .warning, source: aps)
    /// `UIBackgroundModes` without `remote-notification` while the code relies on silent pushes.
    public static let noRemoteNotification = RuleInfo(code: "CK927", name: "info-plist-lacks-remote-notification", summary: "The code relies on silent pushes (CKSyncEngine, shouldSendContentAvailable) but the app's Info.plist has no remote-notification in UIBackgroundModes.", defaultSeverity: .warning, source: backgroundModes)
    /// Sharing APIs used while `CKSharingSupported` is not true.
    public static let sharingNotSupported = RuleInfo(code: "CK928", name: "info-plist-sharing-not-supported", summary: "The code shares records (CKShare, UICloudSharingController, container.share) but the app's Info.plist does not set CKSharingSupported to true: a share's link does not open the app.", defaultSeverity: .error, source: sharing)

    static let modify = "CKDatabase.modifyRecords(saving:deleting:savePolicy:atomically:) (developer.apple.com/documentation/cloudkit/ckdatabase/modifyrecords(saving:deleting:savepolicy:atomically:)): it returns a Result per record; CKModifyRecordsOperation.perRecordSaveBlock (developer.apple.com/documentation/cloudkit/ckmodifyrecordsoperation/perrecordsaveblock)"
    static let engine = "CKSyncEngine (developer.apple.com/documentation/cloudkit/cksyncengine): it syncs records in custom zones of the private and shared databases; CKSyncEngine.Event.sentRecordZoneChanges (failedRecordSaves), .fetchedRecordZoneChanges (deletions), .stateUpdate (the state serialization to persist)"

    /// `modifyRecords(saving:deleting:)` whose per-record results are never read.
    public static let perRecordUnread = RuleInfo(code: "CK930", name: "per-record-results-unread", summary: "modifyRecords(saving:deleting:) that saves records and whose per-record results are discarded or never read: a record CloudKit refused is dropped while the batch looks like a success.", defaultSeverity: .warning, source: modify)
    /// `CKModifyRecordsOperation` with a `modifyRecordsResultBlock` and no `perRecordSaveBlock`.
    public static let operationNoPerRecord = RuleInfo(code: "CK931", name: "operation-no-per-record-block", summary: "A CKModifyRecordsOperation with a modifyRecordsResultBlock that never looks at a failure and no perRecordSaveBlock: which records failed is never seen.", defaultSeverity: .warning, source: modify)
    /// A default-zone record ID handed to CKSyncEngine.
    public static let engineDefaultZone = RuleInfo(code: "CK932", name: "sync-engine-default-zone", summary: "CKSyncEngine is handed .saveRecord/.deleteRecord of a record ID in the default zone: the engine syncs custom zones only.", defaultSeverity: .error, source: engine)
    /// `CKSyncEngine.Configuration(database:)` with the public database.
    public static let enginePublicDatabase = RuleInfo(code: "CK933", name: "sync-engine-public-database", summary: "CKSyncEngine.Configuration(database:) with the public database: the engine syncs the private and shared databases only.", defaultSeverity: .error, source: engine)
    /// An event handler that never reads the failures or deletions.
    public static let engineFailuresUnread = RuleInfo(code: "CK934", name: "sync-engine-failures-unread", summary: "A CKSyncEngine handler of .sentRecordZoneChanges that never reads failedRecordSaves, or of .fetchedRecordZoneChanges that never reads deletions.", defaultSeverity: .warning, source: engine)
    /// `try?` around saving the engine's state.
    public static let engineStateTry = RuleInfo(code: "CK935", name: "sync-engine-state-try", summary: "'try?' around saving CKSyncEngine's state serialization (or in the .stateUpdate handler): a failed save goes unseen.", defaultSeverity: .warning, source: engine)

    public static let all: [RuleInfo] = [unreadable, containerNotEntitled, codeContainerNotEntitled, noCloudKitService, environmentInvalid, environmentMismatch, noPush, noRemoteNotification, sharingNotSupported,
                                         perRecordUnread, operationNoPerRecord, engineDefaultZone, enginePublicDatabase, engineFailuresUnread, engineStateTry]
}
