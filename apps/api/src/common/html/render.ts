import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A whole HTML document from its <html> element: every text and attribute escaped by the renderer. */
export function renderDocument(page: VNode): string {
  return `<!DOCTYPE html>${renderToString(page)}`;
}
