import Foundation
import FuzzDriver
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaScan

/// Every fact the code can give, so that every entitlements and Info.plist check runs.
let facts: ShipFacts = {
    var f = ShipFacts()
    let at = SourceLocation(file: "App.swift", line: 1, column: 1)
    f.usesCloudKit = at
    f.containers = [("iCloud.com.example.App", at)]
    f.subscriptions = at
    f.silentPush = ("CKSyncEngine", at)
    f.sharing = ("CKShare(...)", at)
    return f
}()

/// The property list reader (XML and binary `bplist00`) over untrusted bytes, then the bundle
/// checks with the list as an entitlements file and as an Info.plist: it never traps or hangs
/// (entities are never expanded, binary offsets and cycles are bounded), a failure has a line
/// and column inside the input, and no control character of the input reaches a message raw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    switch PropertyList.parse(data) {
    case .failure(let f):
        precondition(f.line >= 1 && f.column >= 1, "a failure without a place: \(f.message)")
        precondition(f.line <= data.count + 1, "a failure past the input's lines: \(f.line)")
    case .success(let root):
        guard case .dict = root.value else { return 0 }
        let files = [AppBundle.File(path: "App.entitlements", root: root, isEntitlements: true), AppBundle.File(path: "Info.plist", root: root, isEntitlements: false)]
        for d in AppBundle.check(files, facts: facts, container: "iCloud.com.example.App") {
            precondition(d.location != nil, "a finding without a place: \(d.message)")
            precondition(!d.message.unicodeScalars.contains { $0.value == 0x1B }, "an escape reached a message raw: \(d.message)")
        }
    }
    return 0
}

runFuzzer(fuzzPlist)
