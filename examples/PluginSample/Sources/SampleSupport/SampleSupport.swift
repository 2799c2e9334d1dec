import SwiftParser
import SwiftSyntax

/// Stands for what an app does with its own swift-syntax (macros, code generation): the version it
/// resolves is the one machine-viz has to build against.
public enum SampleSupport {
    /// The names of the top-level types declared in `source`.
    public static func typeNames(in source: String) -> [String] {
        Parser.parse(source: source).statements.compactMap { item in
            item.item.as(StructDeclSyntax.self)?.name.text ?? item.item.as(EnumDeclSyntax.self)?.name.text
        }
    }
}
