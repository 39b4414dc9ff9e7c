// swift-tools-version:6.0
import PackageDescription

// ckschema's plugins on a prebuilt binary (docs/integrations.md): the same three plugins as the
// ckschema package (Plugins/ here links to ../../Plugins, one source for both), but their tool
// is the release's artifact bundle, so an app that attaches them downloads ckschema instead of
// compiling it. The form SwiftLint's binary plugins take (SimplyDanny/SwiftLintPlugins: a
// `binaryTarget(url:checksum:)` its plugins depend on). scripts/build-release.sh writes the
// published copy of this folder (`dist/ckschema-plugins/`, the links replaced by the files)
// with the two lines below set to the bundle it built. In this tree they are placeholders (no
// release is published yet): depend on the published copy, or build a bundle and point a
// `.binaryTarget(name:path:)` at it (docs/integrations.md).

/// The artifact bundle the plugins run: `scripts/artifact-bundle.sh` makes it, its checksum is
/// `swift package compute-checksum` of the zip.
let release = (
    url: "https://github.com/ckschema/ckschema/releases/download/0.1.0/ckschema.artifactbundle.zip",
    checksum: "0000000000000000000000000000000000000000000000000000000000000000"
)

let package = Package(
    name: "ckschema-plugins",
    platforms: [.macOS(.v13)],
    products: [
        .plugin(name: "CKSchemaCommand", targets: ["CKSchemaCommand"]),
        .plugin(name: "CKSchemaLint", targets: ["CKSchemaLint"]),
        .plugin(name: "CKSchemaGenerate", targets: ["CKSchemaGenerate"]),
    ],
    targets: [
        .plugin(
            name: "CKSchemaCommand",
            capability: .command(intent: .custom(verb: "ckschema", description: "Run ckschema (check, lint, fmt, pull, ...) in this package")),
            dependencies: ["CKSchemaBinary"]
        ),
        .plugin(name: "CKSchemaLint", capability: .buildTool(), dependencies: ["CKSchemaBinary"]),
        // Typed Swift from the schema, regenerated on every build (docs/codegen.md).
        .plugin(name: "CKSchemaGenerate", capability: .buildTool(), dependencies: ["CKSchemaBinary"]),
        // The bundle's artifact is named `ckschema`: the plugins' `context.tool(named: "ckschema")`.
        .binaryTarget(name: "CKSchemaBinary", url: release.url, checksum: release.checksum),
    ],
    swiftLanguageModes: [.v6]
)
