import type { RecorderInput } from '@rehearse/contract';
import { useEffect, type RefObject } from 'react';

/**
 * The user's mouse, wheel, keyboard and paste on the canvas, sent to the remote page as inputs
 * (the canvas is always in the page, hidden until the stream is live, so the listeners stay on it).
 */
export function useCanvasInput(canvasRef: RefObject<HTMLCanvasElement | null>, send: (input: RecorderInput) => void) {
  // Canvas input: coordinates scale from the displayed size to the remote page's CSS pixels.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const point = (event: MouseEvent) => {
      const rect = canvas.getBoundingClientRect();
      return {
        x: ((event.clientX - rect.left) / rect.width) * canvas.width,
        y: ((event.clientY - rect.top) / rect.height) * canvas.height,
      };
    };
    const button = (event: MouseEvent): 'left' | 'right' | 'middle' =>
      event.button === 2 ? 'right' : event.button === 1 ? 'middle' : 'left';
    // The press's place in a run of clicks (2 on a double-click's second press), so the remote page gets its dblclick.
    const clickCount = (event: MouseEvent) => Math.min(3, Math.max(1, event.detail || 1));
    // At most one move per animation frame (all the remote page can show), but the first move
    // goes at once: waiting for the next frame would add up to a frame of latency to every hover.
    let pendingMove: MouseEvent | null = null;
    let moveWindowOpen = false;
    const flushMove = () => {
      if (pendingMove) {
        send({ kind: 'mouse', type: 'move', ...point(pendingMove) });
        pendingMove = null;
        requestAnimationFrame(flushMove);
      } else moveWindowOpen = false;
    };
    const onMove = (event: MouseEvent) => {
      if (moveWindowOpen) {
        pendingMove = event;
        return;
      }
      send({ kind: 'mouse', type: 'move', ...point(event) });
      moveWindowOpen = true;
      requestAnimationFrame(flushMove);
    };
    const onDown = (event: MouseEvent) => {
      canvas.focus();
      event.preventDefault();
      send({ kind: 'mouse', type: 'down', ...point(event), button: button(event), clickCount: clickCount(event) });
    };
    const onUp = (event: MouseEvent) =>
      send({ kind: 'mouse', type: 'up', ...point(event), button: button(event), clickCount: clickCount(event) });
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      send({ kind: 'wheel', ...point(event), deltaX: event.deltaX, deltaY: event.deltaY });
    };
    const onKey = (event: KeyboardEvent) => {
      const pasting = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
      if (pasting) return; // the paste event brings the text
      event.preventDefault();
      send({ kind: 'key', type: event.type === 'keydown' ? 'down' : 'up', key: event.key });
    };
    const onPaste = (event: ClipboardEvent) => {
      if (document.activeElement !== canvas) return;
      const text = event.clipboardData?.getData('text/plain');
      if (text) send({ kind: 'paste', text });
      event.preventDefault();
    };
    const onContext = (event: Event) => event.preventDefault();
    canvas.addEventListener('mousemove', onMove);
    canvas.addEventListener('mousedown', onDown);
    canvas.addEventListener('mouseup', onUp);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    canvas.addEventListener('keydown', onKey);
    canvas.addEventListener('keyup', onKey);
    canvas.addEventListener('contextmenu', onContext);
    document.addEventListener('paste', onPaste);
    return () => {
      canvas.removeEventListener('mousemove', onMove);
      canvas.removeEventListener('mousedown', onDown);
      canvas.removeEventListener('mouseup', onUp);
      canvas.removeEventListener('wheel', onWheel);
      canvas.removeEventListener('keydown', onKey);
      canvas.removeEventListener('keyup', onKey);
      canvas.removeEventListener('contextmenu', onContext);
      document.removeEventListener('paste', onPaste);
    };
  }, [canvasRef, send]);
}
