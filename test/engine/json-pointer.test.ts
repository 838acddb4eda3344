import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pointerSegments } from '../../engine/json/pointer.ts';

// The examples of RFC 6901, sections 3 and 5: `~1` is `/`, `~0` is `~`, and `~01` is `~1`, not `/`.

test('the whole document, and the empty key', () => {
  assert.equal(pointerSegments(''), []);
  assert.equal(pointerSegments('/'), ['']);
});

test('escaped slashes and tildes', () => {
  assert.equal(pointerSegments('/a~1b'), ['a/b']);
  assert.equal(pointerSegments('/m~0n'), ['m~n']);
  assert.equal(pointerSegments('/~01'), ['~1']);
  assert.equal(pointerSegments('/foo/0'), ['foo', '0']);
});

test.run();
