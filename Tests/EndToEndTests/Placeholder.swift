import XCTest
final class EndToEndTestsPlaceholder: XCTestCase { func testNothing() {} }
