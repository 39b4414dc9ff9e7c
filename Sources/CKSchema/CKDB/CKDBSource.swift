import Foundation

/// The seam between schema sources and the CloudKit Schema Language parser.
enum CKDBSource {
    static func parse(_ data: Data, file: String) throws(InputError) -> Schema {
        // The .ckdb parser lands with the CKDB work; until then say so plainly.
        throw InputError(.error(InputRules.unreadable.code, "reading .ckdb files is not available in this build",
                                at: SourceLocation(file: file, line: 1, column: 1)))
    }
}
