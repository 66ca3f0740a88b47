// qrcode's encoder on its own (lib/core/qrcode.js): the package's entry also brings the canvas
// and markup-string renderers, which this widget never uses. Same `create`, same types.
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}
