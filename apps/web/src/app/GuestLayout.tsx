import { LogoMark } from '../ui/Logo.tsx';
import { LayoutFrame } from './LayoutFrame.tsx';

/** Frame for the sign-in, sign-up and password screens: the brand, the form, a way back. */
export function GuestLayout() {
  return (
    <LayoutFrame
      className="guest-layout"
      header={
        <header className="guest-layout__header">
          <a className="brand" href="/">
            <LogoMark />
            <span className="brand__name brand__name--always">Tradie Quotes</span>
          </a>
        </header>
      }
      mainClassName="guest-layout__main"
      footer={
        <footer className="guest-layout__footer">
          <a href="/terms">Terms</a>
          <a href="/privacy">Privacy</a>
          <a href="/support">Support</a>
        </footer>
      }
    />
  );
}
