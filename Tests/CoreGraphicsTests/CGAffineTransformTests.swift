import XCTest
import CoreGraphics

final class CGAffineTransformTests: XCTestCase {
    private func assertEqual(_ p: CGPoint, _ q: CGPoint, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, q.x, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: 1e-9, file: file, line: line)
    }

    func testIdentityAndConstructors() {
        XCTAssertTrue(CGAffineTransform.identity.isIdentity)
        XCTAssertEqual(CGAffineTransform(), CGAffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0))
        XCTAssertFalse(CGAffineTransform(scaleX: 2, y: 1).isIdentity)
        assertEqual(CGPoint(x: 3, y: 4).applying(.identity), CGPoint(x: 3, y: 4))
        assertEqual(CGPoint(x: 3, y: 4).applying(CGAffineTransform(scaleX: 2, y: -1)), CGPoint(x: 6, y: -4))
        assertEqual(CGPoint(x: 3, y: 4).applying(CGAffineTransform(translationX: 10, y: 20)), CGPoint(x: 13, y: 24))
    }

    func testQuarterTurnsAreExact() {
        // A quarter turn maps the x axis onto the y axis (Core Graphics' y grows downwards on iOS,
        // so this is clockwise on screen), and is exact, as the movie file output's matrix needs.
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        XCTAssertEqual(quarter, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        XCTAssertEqual(CGAffineTransform(rotationAngle: .pi), CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0))
        XCTAssertEqual(CGAffineTransform(rotationAngle: -.pi / 2), CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0))
        let eighth = CGAffineTransform(rotationAngle: .pi / 4)
        XCTAssertEqual(eighth.a, sqrt(0.5), accuracy: 1e-12)
        XCTAssertEqual(eighth.c, -sqrt(0.5), accuracy: 1e-12)
    }

    func testConcatenationAppliesTheReceiverFirst() {
        let translate = CGAffineTransform(translationX: 10, y: 0)
        let rotate = CGAffineTransform(rotationAngle: .pi / 2)
        // Translate, then rotate: (1, 0) -> (11, 0) -> (0, 11).
        assertEqual(CGPoint(x: 1, y: 0).applying(translate.concatenating(rotate)), CGPoint(x: 0, y: 11))
        // rotated(by:) puts the rotation before the receiver: (1, 0) -> (0, 1) -> (10, 1).
        assertEqual(CGPoint(x: 1, y: 0).applying(translate.rotated(by: .pi / 2)), CGPoint(x: 10, y: 1))
        assertEqual(CGPoint(x: 1, y: 1).applying(translate.scaledBy(x: 2, y: 3)), CGPoint(x: 12, y: 3))
        assertEqual(CGPoint(x: 1, y: 1).applying(CGAffineTransform(scaleX: 2, y: 3).translatedBy(x: 1, y: 1)), CGPoint(x: 4, y: 6))
    }

    func testInversionUndoesAndASingularTransformIsReturnedAsItIs() {
        let t = CGAffineTransform(rotationAngle: 0.3).scaledBy(x: 2, y: 0.5).translatedBy(x: 7, y: -3)
        let p = CGPoint(x: 12.5, y: -4)
        assertEqual(p.applying(t).applying(t.inverted()), p)
        let product = t.concatenating(t.inverted())
        XCTAssertEqual(product.a, 1, accuracy: 1e-12)
        XCTAssertEqual(product.d, 1, accuracy: 1e-12)
        XCTAssertEqual(product.tx, 0, accuracy: 1e-12)
        let singular = CGAffineTransform(scaleX: 0, y: 1)
        XCTAssertEqual(singular.inverted(), singular)
    }

    func testRectsAndSizes() {
        let rect = CGRect(x: 0, y: 0, width: 1920, height: 1080)
        // A portrait movie: the landscape frame turned a quarter and moved back into view.
        let portrait = CGAffineTransform(rotationAngle: .pi / 2).concatenating(CGAffineTransform(translationX: 1080, y: 0))
        XCTAssertEqual(rect.applying(portrait), CGRect(x: 0, y: 0, width: 1080, height: 1920))
        XCTAssertEqual(CGSize(width: 1920, height: 1080).applying(CGAffineTransform(rotationAngle: .pi / 2)), CGSize(width: -1080, height: 1920))
        let turned = CGRect(x: 0, y: 0, width: 2, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 4))
        XCTAssertEqual(turned.width, 2 * sqrt(2), accuracy: 1e-9, "the bounding box of the turned corners")
        XCTAssertEqual(turned.minX, -sqrt(2), accuracy: 1e-9)
        XCTAssertTrue(CGRect.null.applying(portrait).isNull)
    }

    func testCodableRoundTrip() throws {
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        XCTAssertEqual(try JSONDecoder().decode(CGAffineTransform.self, from: JSONEncoder().encode(t)), t)
    }
}
