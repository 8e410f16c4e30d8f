/** The one account the demo shop knows. Tests and the "use the demo app" hint show these credentials. */
export const DEMO_SHOP_USER: { email: string; password: string; name: string } = {
  email: 'demo@rehearse.dev',
  password: 'rehearse123',
  name: 'Dana Demo',
};
