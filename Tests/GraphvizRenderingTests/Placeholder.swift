import XCTest
final class GraphvizRenderingTestsPlaceholder: XCTestCase { func testNothing() {} }
