import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// `ckschema generate swift`: typed Swift for a schema (docs/codegen.md). One file per record
/// type plus one shared file, deterministic (the same schema gives the same bytes), in
/// swift-format's default style.
public enum SwiftGenerator {
    /// What the generator is told besides the schema.
    public struct Options: Sendable, Hashable {
        /// The enum every generated type lives in (`CloudSchema`).
        public var namespace: String
        /// `public` or `internal` (written as no keyword).
        public var isPublic: Bool
        /// Where the schema came from, for each file's header.
        public var source: String

        public init(namespace: String = "CloudSchema", isPublic: Bool = true, source: String) {
            self.namespace = namespace
            self.isPublic = isPublic
            self.source = source
        }
    }

    /// A generated file: its name (no folder) and its text.
    public struct File: Sendable, Hashable {
        public var name: String
        public var text: String

        public init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// The files, or nothing when there is an error among the diagnostics.
    public struct Output: Sendable {
        public var files: [File]
        public var diagnostics: [Diagnostic]
    }

    /// The Swift for `schema`. A schema the generator cannot express (CK951, CK952) gives no
    /// files and the located errors; a declared query it leaves out is a CK953 warning.
    public static func generate(_ schema: Schema, options: Options) -> Output {
        var plan = NamePlan(schema: schema, namespace: options.namespace)
        if plan.diagnostics.contains(where: { $0.severity == .error }) { return Output(files: [], diagnostics: plan.diagnostics) }
        let header = GeneratedFolder.headerPrefix + SwiftNames.comment(options.source) + "; do not edit\n\n"
        let access = options.isPublic ? "public " : ""
        var files: [File] = []
        files.reserveCapacity(schema.recordTypes.count + 1)
        let plain = header + "import CloudKit\n\n", withLocation = header + "import CloudKit\nimport CoreLocation\n\n"
        var shared = header + "import CloudKit\nimport CoreLocation\n\n"
        shared += SwiftSupportFile.text(namespace: options.namespace, access: access)
        shared += SwiftZonesWriter.text(schema: schema, plan: plan, access: access)
        files.append(File(name: options.namespace + ".swift", text: shared))
        // Each record type's file depends only on the schema and the plan: the two halves are
        // written on two threads (string building is most of a generation's CPU), then joined
        // in the schema's order, so the files and diagnostics are the same as in one pass.
        let fixed = plan
        @Sendable func write(_ range: Range<Int>) -> (files: [File], diagnostics: [Diagnostic]) {
            var out: [File] = [], diagnostics: [Diagnostic] = []
            out.reserveCapacity(range.count)
            for index in range {
                let type = schema.recordTypes[index]
                var writer = SwiftRecordTypeWriter(schema: schema, type: type, names: fixed.types[index], plan: fixed, access: access)
                let text = writer.text(prefix: type.fields.contains { $0.type.primitive == .location } ? withLocation : plain)
                diagnostics += writer.diagnostics
                out.append(File(name: fixed.types[index].swiftName + ".swift", text: text))
            }
            return (out, diagnostics)
        }
        let count = schema.recordTypes.count, half = count / 2
        let halves = count < 64 ? [write(0..<count)] : { let (a, b) = Concurrently.both({ write(0..<half) }, { write(half..<count) }); return [a, b] }()
        for h in halves {
            files += h.files
            plan.diagnostics += h.diagnostics
        }
        // A collision found while writing (two declared queries) is an error too: nothing is written.
        if plan.diagnostics.contains(where: { $0.severity == .error }) { return Output(files: [], diagnostics: plan.diagnostics) }
        return Output(files: files, diagnostics: plan.diagnostics)
    }

    /// Generates and writes the files into `folder` (replaced whole, only when every file is
    /// ready), or into `folder/NAMESPACE.swift` alone with `singleFile`. Throws the errors
    /// (CK951, CK952, CK007) with nothing written; returns the warnings and the file count.
    public static func write(_ schema: Schema, options: Options, to folder: String, singleFile: Bool = false)
        throws(InputError) -> (fileCount: Int, diagnostics: [Diagnostic])
    {
        let written = try writeFolder(schema, options: options, to: folder, singleFile: singleFile)
        return (written.fileCount, written.diagnostics)
    }

    /// `write`, also saying what it did to the folder: `.unchanged` when the folder already
    /// held exactly these files (nothing was touched), else how many files were rewritten.
    public static func writeFolder(_ schema: Schema, options: Options, to folder: String, singleFile: Bool = false)
        throws(InputError) -> (fileCount: Int, outcome: GeneratedFolder.Outcome, diagnostics: [Diagnostic])
    {
        let generated = generate(schema, options: options)
        if generated.diagnostics.contains(where: { $0.severity == .error }) { throw InputError(generated.diagnostics) }
        let files = singleFile ? [File(name: options.namespace + ".swift", text: combined(generated.files))] : generated.files
        let outcome = try GeneratedFolder.write(files, to: folder)
        return (files.count, outcome, generated.diagnostics)
    }

    /// The files as one (the build-tool plugin must name its outputs before it runs): the
    /// shared file, then each record type's body without its header and imports.
    public static func combined(_ files: [File]) -> String {
        guard var text = files.first?.text else { return "" }
        for file in files.dropFirst() {
            // Each file is the header, its imports and a blank line, then the body.
            guard let body = file.text.range(of: "\n\nextension ") else { continue }
            text += "\n" + file.text[file.text.index(after: body.lowerBound)...].dropFirst()
        }
        return text
    }

    /// True when `name` can be the namespace: a Swift identifier that is no keyword.
    public static func isNamespace(_ name: String) -> Bool {
        !name.isEmpty && SwiftNames.identifier(name) == name && !SwiftNames.keywords.contains(name)
    }
}
