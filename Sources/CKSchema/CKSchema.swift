/// CKSchema: the library users import. It re-exports every layer (docs/architecture.md);
/// each layer is a SwiftPM target that depends only on the layers below it.
@_exported import CKSchemaCheck
