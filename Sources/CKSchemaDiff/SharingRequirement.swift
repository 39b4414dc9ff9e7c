import CKSchemaDiagnostics
import CKSchemaModel

/// Sharing as a production requirement (issue 34, point 2; CK320, CK321): an app that shares
/// records (the scan sees `CKShare`, `UICloudSharingController`, `container.share(...)`, or
/// ckschema.yaml says `sharing: true`) needs production to have what sharing writes, because
/// production never creates a type or a field just in time:
///
/// - `cloudkit.share`, the record type of every `CKShare`. CloudKit creates it in development
///   when a share is first saved; in production a share fails with the server's own words,
///   "Cannot create new type cloudkit.share in production schema" (the message CloudKit gives
///   any type production lacks: "Cannot create new type FavoriteTable in production schema",
///   github.com/TableProApp/TablePro/pull/2226).
/// - for a Core Data or SwiftData model, `CD_moveReceipt BYTES` on every `CD_` record type:
///   `NSPersistentCloudKitContainer.share(_:to:)` moves the shared objects into the share's zone
///   and writes a move receipt on each moved record (the field is in every `CD_` type of
///   the export of Done-and-done, an app that shares: boxed/Done-and-done
///   cloudkit_schema.ckdb, docs/coredata.md), and production refuses the field it lacks,
///   "Cannot create or modify field 'CD_moveReceipt' in record 'CD_...' in production schema"
///   (the form of github.com/caiyue1993/IceCream/issues/164). Without it the link is issued
///   and the share is empty.
///
/// The `_ckAsset` twins are not required: the mirror writes one only for a value too large
/// for the record, whether or not the app shares, and Done-and-done's export (an app that
/// shares) has none for its string attributes (docs/coredata.md, "Sharing").
///
/// Production here is what it will be after the promotion: a type or field development has
/// is deployed with it, so only what neither side has is reported.
public enum SharingRequirement {
    static let shareSource = "Apple, “Sharing CloudKit Data with Other iCloud Users” (developer.apple.com/documentation/cloudkit/shared_records/sharing_cloudkit_data_with_other_icloud_users): a share is a CKShare record of the system type cloudkit.share, which CloudKit creates in development when the first share is saved; production creates no type (“Cannot create new type cloudkit.share in production schema”; the server's message for a missing type: github.com/TableProApp/TablePro/pull/2226)"
    static let receiptSource = "Apple, “Sharing Core Data objects between iCloud users” (developer.apple.com/documentation/coredata/sharing_core_data_objects_between_icloud_users): NSPersistentCloudKitContainer.share moves objects into the share's zone and writes CD_moveReceipt; every CD_ type of Done-and-done's export (an app that shares) has CD_moveReceipt BYTES; production refuses a field it lacks (“Cannot create or modify field ... in production schema”, github.com/caiyue1993/IceCream/issues/164)"

    /// Production lacks `cloudkit.share` while the app shares.
    public static let shareTypeMissing = RuleInfo(code: "CK320", name: "sharing-share-type-missing", summary: "The app shares records (its code, or ckschema.yaml's sharing: true) and production, after this promotion, has no cloudkit.share record type: every share fails with 'Cannot create new type cloudkit.share in production schema'.", defaultSeverity: .error, source: shareSource)
    /// A Core Data type in production without `CD_moveReceipt` while the app shares.
    public static let moveReceiptMissing = RuleInfo(code: "CK321", name: "sharing-move-receipt-missing", summary: "A Core Data or SwiftData app shares records and a CD_ record type, after this promotion, has no CD_moveReceipt (BYTES) in production: sharing moves the object into the share's zone, production refuses the field, and the share arrives empty.", defaultSeverity: .error, source: receiptSource)

    public static let all = [shareTypeMissing, moveReceiptMissing]

    /// Why the app shares: the first sharing call in its code, or ckschema.yaml's key.
    public struct Reason: Sendable, Hashable {
        /// What says so, as the message quotes it (`UICloudSharingController`, `sharing: true`).
        public var what: String
        /// Where it says so.
        public var at: SourceLocation?

        public init(_ what: String, at: SourceLocation?) {
            self.what = what
            self.at = at
        }

        var shown: String { at.map { "\(what) at \($0.description)" } ?? what }
    }

    /// The sharing requirements `production` (after promoting `development`) does not meet,
    /// with the repository's `promote:` settings applied (a disabled code reports nothing).
    public static func check(production: Schema, development: Schema, because reason: Reason, settings: RuleSettings = RuleSettings()) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let shareType = "cloudkit.share"
        let prodTypes = Dictionary(production.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let devTypes = Dictionary(development.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let productionFile = production.origin.location ?? production.recordTypes.first?.origin.location
        if prodTypes[shareType] == nil, devTypes[shareType] == nil {
            out.append(Diagnostic(rule: shareTypeMissing,
                                  "production has no record type '\(shareType)' while the app shares records (\(ControlCharacters.escaped(reason.shown))): every share fails with CloudKit's 'Cannot create new type \(shareType) in production schema'",
                                  at: productionFile.map { SourceLocation(file: $0.file, line: 1, column: 1) },
                                  fix: "in the development environment, save one share (CloudKit then creates '\(shareType)'), deploy the schema to production, then export it again (ckschema pull)"))
        }
        if development.coreDataModel != nil {
            let field = "CD_moveReceipt"
            for t in development.recordTypes where t.name.hasPrefix("CD_") {
                // A receipt development describes as a real field (not on demand) is deployed with it.
                if let f = t.field(named: field), !f.mayBeAbsent { continue }
                let deployed = prodTypes[t.name]
                if deployed?.field(named: field) != nil { continue }
                let name = ControlCharacters.escaped(t.name)
                let message = deployed == nil
                    ? "record type '\(name)' is not in production, and it must arrive there with '\(field)' (BYTES) while the app shares records (\(ControlCharacters.escaped(reason.shown))): sharing moves each object into the share's zone and writes its move receipt"
                    : "record type '\(name)' has no field '\(field)' (BYTES) in production while the app shares records (\(ControlCharacters.escaped(reason.shown))): sharing moves each object into the share's zone, CloudKit refuses with 'Cannot create or modify field '\(field)' in record '\(name)' in production schema', and the share arrives empty"
                out.append(Diagnostic(rule: moveReceiptMissing, message,
                                      at: deployed?.origin.location ?? t.origin.location,
                                      fix: "in the development environment, share one '\(name)' object (Core Data then writes '\(field)' on it), deploy the schema to production, then export it again (ckschema pull)"))
            }
        }
        return out.compactMap { d in
            guard !settings.disabled.contains(d.code) else { return nil }
            var d = d
            if let s = settings.severities[d.code] { d.severity = s }
            return d
        }
    }
}
